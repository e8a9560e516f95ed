// GitHub Copilot CLI scenarios: docs/agents.md and the Copilot CLI rules measured on the pinned release
// (docs/agents.md "GitHub Copilot CLI"). Default layout: HOME = home, workspace = home/proj.

import type { Scenario } from '../lib/types.js';

/** A SKILL.md with a name, a description and a short body; `extra` adds frontmatter lines. */
function skill(name: string, description: string, extra = ''): string {
  return `---\nname: ${name}\ndescription: ${description}\n${extra}---\n\n# ${name}\n\nFollow the steps in order.\n`;
}

/** A SKILL.md whose frontmatter is exactly `lines`. */
function raw(lines: string): string {
  return `---\n${lines}\n---\n\nRead the checklist first.\n`;
}

const PDF = skill('pdf', '"Use when: a PDF must be read, split or merged"');
const DOCX = skill('docx', 'Edit Word documents, keeping tracked changes');
const SHEETS = skill('sheets', '"Spreadsheets: formulas, pivots and charts"');

/** `count` skills `<prefix>-NN` in one root, each with a description of `size` characters. */
function many(root: string, prefix: string, count: number, size: number, lastSize = size): Record<string, string> {
  const tree: Record<string, string> = {};
  for (let i = 0; i < count; i++) {
    const name = `${prefix}-${String(i).padStart(2, '0')}`;
    const length = i === count - 1 ? lastSize : size;
    const text = `Use when: task ${i} needs ${name}. `.padEnd(length, 'Step by step. ').slice(0, length);
    tree[`${root}/${name}/SKILL.md`] = skill(name, JSON.stringify(text));
  }
  return tree;
}

export const scenarios: Scenario[] = [
  // Roots and their order.
  {
    id: 'roots-every-kind',
    rule: 'Project .github/.agents/.claude skills and ~/.copilot/skills and ~/.agents/skills load; ~/.claude/skills does not.',
    git: ['home/proj'],
    tree: {
      'home/proj/.github/skills/p-github/SKILL.md': skill('p-github', 'Project skill under .github'),
      'home/proj/.agents/skills/p-agents/SKILL.md': skill('p-agents', 'Project skill under .agents'),
      'home/proj/.claude/skills/p-claude/SKILL.md': skill('p-claude', 'Project skill under .claude'),
      'home/.copilot/skills/u-copilot/SKILL.md': skill('u-copilot', 'Personal skill under ~/.copilot'),
      'home/.agents/skills/u-agents/SKILL.md': skill('u-agents', 'Personal skill under ~/.agents'),
      'home/.claude/skills/u-claude/SKILL.md': skill('u-claude', 'Personal skill under ~/.claude'),
      'home/.codex/skills/u-codex/SKILL.md': skill('u-codex', 'Not a Copilot root'),
      'home/proj/.gemini/skills/p-gemini/SKILL.md': skill('p-gemini', 'Not a Copilot root'),
    },
  },
  {
    id: 'root-order-kind-then-level',
    rule: 'Project roots load by kind (.github, .agents, .claude), each from the workspace up to the repository root.',
    git: ['home/proj'],
    cwd: 'home/proj/sub',
    tree: {
      'home/proj/.github/skills/zeta/SKILL.md': skill('zeta', 'GitHub root at the repository top'),
      'home/proj/sub/.github/skills/yankee/SKILL.md': skill('yankee', 'GitHub root in the workspace'),
      'home/proj/.agents/skills/alpha/SKILL.md': skill('alpha', 'Agents root at the repository top'),
      'home/proj/sub/.agents/skills/bravo/SKILL.md': skill('bravo', 'Agents root in the workspace'),
      'home/proj/.claude/skills/mike/SKILL.md': skill('mike', 'Claude root at the repository top'),
      'home/proj/sub/.claude/skills/able/SKILL.md': skill('able', 'Claude root in the workspace'),
      'home/.copilot/skills/user-copilot/SKILL.md': skill('user-copilot', 'Personal Copilot skill'),
      'home/.agents/skills/user-agents/SKILL.md': skill('user-agents', 'Personal agents skill'),
    },
  },
  {
    id: 'walk-three-levels-in-repo',
    rule: 'Inside a repository the walk covers every level from the workspace to its root; skills above the workspace (inherited) sort by name among themselves.',
    git: ['home/proj'],
    cwd: 'home/proj/app/web',
    catalog: false,
    tree: {
      'home/proj/app/web/.agents/skills/zulu-web/SKILL.md': skill('zulu-web', 'Workspace level'),
      'home/proj/app/.agents/skills/yoke-app/SKILL.md': skill('yoke-app', 'Middle level'),
      'home/proj/.agents/skills/xray-top/SKILL.md': skill('xray-top', 'Repository root level'),
      'home/proj/app/web/.github/skills/gw/SKILL.md': skill('gw', 'Workspace level, .github'),
      'home/proj/app/.github/skills/gm/SKILL.md': skill('gm', 'Middle level, .github'),
      'home/proj/.github/skills/gt/SKILL.md': skill('gt', 'Repository root level, .github'),
    },
  },
  {
    id: 'walk-stops-at-repository-root',
    rule: 'Nothing above the repository root is read, not even at HOME.',
    git: ['home/work/proj'],
    cwd: 'home/work/proj',
    catalog: false,
    tree: {
      'home/work/proj/.agents/skills/inside/SKILL.md': skill('inside', 'Inside the repository'),
      'home/work/.agents/skills/above/SKILL.md': skill('above', 'Above the repository'),
      'home/work/.github/skills/above-gh/SKILL.md': skill('above-gh', 'Above the repository'),
      'home/.github/skills/home-gh/SKILL.md': skill('home-gh', 'At HOME, above the repository'),
    },
  },
  {
    id: 'walk-without-repository-to-home',
    rule: 'Without a repository the walk goes up to and including HOME (H/.github, H/.agents; never H/.claude/skills), nothing above HOME.',
    cwd: 'home/work/proj',
    tree: {
      'home/work/proj/.github/skills/proj-gh/SKILL.md': skill('proj-gh', 'Workspace .github'),
      'home/work/.github/skills/work-gh/SKILL.md': skill('work-gh', 'Parent .github'),
      'home/.github/skills/home-gh/SKILL.md': skill('home-gh', 'HOME .github'),
      'home/.agents/skills/home-agents/SKILL.md': skill('home-agents', 'HOME .agents'),
      'home/.claude/skills/home-claude/SKILL.md': skill('home-claude', 'HOME .claude'),
      'home/work/.claude/skills/work-claude/SKILL.md': skill('work-claude', 'Parent .claude'),
      '.github/skills/above-home/SKILL.md': skill('above-home', 'Above HOME'),
      '.agents/skills/above-home-agents/SKILL.md': skill('above-home-agents', 'Above HOME'),
    },
  },
  {
    id: 'walk-empty-dot-git-is-no-repository',
    rule: 'An empty .git directory does not make a repository: the walk goes on up to HOME.',
    cwd: 'home/work/proj',
    catalog: false,
    tree: {
      'home/work/proj/.git': { dir: true },
      'home/work/proj/.agents/skills/local/SKILL.md': skill('local', 'Workspace skill'),
      'home/work/.agents/skills/parent/SKILL.md': skill('parent', 'Parent skill, read because .git is empty'),
      'home/.github/skills/at-home/SKILL.md': skill('at-home', 'HOME skill'),
    },
  },
  {
    id: 'walk-outside-home-to-root',
    rule: 'A workspace outside HOME without a repository walks up toward the filesystem root: its parent is read.',
    cwd: 'work/proj',
    catalog: false,
    tree: {
      'work/proj/.agents/skills/here/SKILL.md': skill('here', 'Workspace skill'),
      'work/.agents/skills/parent/SKILL.md': skill('parent', 'Parent of a workspace outside HOME'),
      'home/.agents/skills/personal/SKILL.md': skill('personal', 'Personal agents skill'),
    },
  },
  {
    id: 'workspace-is-home',
    rule: 'With HOME as the workspace, H/.github and H/.agents are project roots (H/.agents not again as personal) and H/.claude/skills is not read.',
    cwd: 'home',
    tree: {
      'home/.github/skills/gh-home/SKILL.md': skill('gh-home', 'GitHub root at HOME'),
      'home/.agents/skills/agents-home/SKILL.md': skill('agents-home', 'Agents root at HOME'),
      'home/.claude/skills/claude-home/SKILL.md': skill('claude-home', 'Claude root at HOME'),
      'home/.copilot/skills/copilot-home/SKILL.md': skill('copilot-home', 'Copilot root at HOME'),
    },
  },
  {
    id: 'repository-at-home',
    rule: 'A repository whose root is HOME: the walk reaches HOME and reads H/.github and H/.agents but not H/.claude/skills.',
    git: ['home'],
    cwd: 'home/proj',
    catalog: false,
    tree: {
      'home/proj/.claude/skills/proj-claude/SKILL.md': skill('proj-claude', 'Workspace .claude'),
      'home/.github/skills/home-gh/SKILL.md': skill('home-gh', 'HOME .github in the repository'),
      'home/.agents/skills/home-agents/SKILL.md': skill('home-agents', 'HOME .agents in the repository'),
      'home/.claude/skills/home-claude/SKILL.md': skill('home-claude', 'HOME .claude in the repository'),
    },
  },
  {
    id: 'copilot-home-elsewhere',
    rule: 'COPILOT_HOME elsewhere replaces ~/.copilot/skills with $COPILOT_HOME/skills and drops ~/.agents/skills.',
    git: ['home/proj'],
    env: { COPILOT_HOME: '{root}/cph' },
    tree: {
      'cph/skills/from-copilot-home/SKILL.md': skill('from-copilot-home', 'Under $COPILOT_HOME/skills'),
      'home/.copilot/skills/default-home/SKILL.md': skill('default-home', 'Under ~/.copilot/skills'),
      'home/.agents/skills/user-agents/SKILL.md': skill('user-agents', 'Under ~/.agents/skills'),
      'home/proj/.agents/skills/project/SKILL.md': skill('project', 'Project skill'),
    },
  },
  {
    id: 'copilot-home-is-default',
    rule: 'COPILOT_HOME equal to ~/.copilot keeps ~/.agents/skills.',
    git: ['home/proj'],
    catalog: false,
    env: { COPILOT_HOME: '{home}/.copilot' },
    tree: {
      'home/.copilot/skills/default-home/SKILL.md': skill('default-home', 'Under ~/.copilot/skills'),
      'home/.agents/skills/user-agents/SKILL.md': skill('user-agents', 'Under ~/.agents/skills'),
    },
  },
  {
    id: 'copilot-skills-dirs',
    rule: 'COPILOT_SKILLS_DIRS (comma-separated) adds custom roots, loaded after the personal ones.',
    git: ['home/proj'],
    env: { COPILOT_SKILLS_DIRS: '{root}/extra-a,{root}/extra-b' },
    tree: {
      'extra-a/aardvark/SKILL.md': skill('aardvark', 'Custom directory A'),
      'extra-b/badger/SKILL.md': skill('badger', 'Custom directory B'),
      'home/.copilot/skills/zebra/SKILL.md': skill('zebra', 'Personal skill'),
      'home/proj/.github/skills/yak/SKILL.md': skill('yak', 'Project skill'),
    },
  },
  {
    id: 'copilot-skills-dirs-duplicate',
    rule: 'A personal skill beats a custom-directory skill of the same name.',
    git: ['home/proj'],
    catalog: false,
    env: { COPILOT_SKILLS_DIRS: '{root}/extra' },
    tree: {
      'extra/pdf/SKILL.md': skill('pdf', 'Custom directory copy'),
      'home/.agents/skills/pdf/SKILL.md': skill('pdf', 'Personal copy'),
    },
  },
  {
    id: 'symlinked-workspace',
    rule: 'A workspace reached through a link is used as its real directory, and real paths are reported.',
    cwd: 'home/link',
    catalog: false,
    git: ['home/real'],
    tree: {
      'home/link': { link: 'real' },
      'home/real/.agents/skills/pdf/SKILL.md': PDF,
    },
  },

  // Layout inside a root.
  {
    id: 'nested-folders-recursive',
    rule: 'Skills are found at any depth below a root.',
    git: ['home/proj'],
    catalog: false,
    tree: {
      'home/proj/.agents/skills/top/SKILL.md': skill('top', 'First level'),
      'home/proj/.agents/skills/group/inner/SKILL.md': skill('inner', 'Second level'),
      'home/proj/.agents/skills/l1/l2/l3/l4/l5/l6/SKILL.md': skill('deep6', 'Sixth level'),
      'home/proj/.agents/skills/m1/m2/m3/m4/m5/m6/m7/m8/SKILL.md': skill('deep8', 'Eighth level'),
    },
  },
  {
    id: 'leaf-folder-stops-descent',
    rule: 'A folder holding SKILL.md is a leaf: nothing below it is read.',
    git: ['home/proj'],
    catalog: false,
    tree: {
      'home/proj/.agents/skills/outer/SKILL.md': skill('outer', 'Outer skill'),
      'home/proj/.agents/skills/outer/nested/SKILL.md': skill('nested', 'Below another skill'),
      'home/proj/.agents/skills/outer/scripts/run.py': 'print("ok")\n',
    },
  },
  {
    id: 'skill-md-directly-in-root',
    rule: 'A SKILL.md directly in a root makes the root one skill; its sub-folders are not read.',
    git: ['home/proj'],
    catalog: false,
    tree: {
      'home/.agents/skills/SKILL.md': skill('root-skill', 'SKILL.md in the root itself'),
      'home/.agents/skills/child/SKILL.md': skill('child', 'Sub-folder of a root that is a skill'),
      'home/proj/.github/skills/pdf/SKILL.md': PDF,
    },
  },
  {
    id: 'sort-by-whole-path-duplicates',
    rule: 'Inside a root candidates sort by the whole path string, so of two folders with one name the first by path wins.',
    git: ['home/proj'],
    tree: {
      'home/proj/.agents/skills/a/SKILL.md': skill('shared', 'From folder a'),
      'home/proj/.agents/skills/a-b/SKILL.md': skill('shared', 'From folder a-b'),
      'home/proj/.agents/skills/a.c/SKILL.md': skill('dotted', 'From folder a.c'),
      'home/proj/.agents/skills/B/SKILL.md': skill('upper', 'From folder B'),
    },
  },
  {
    id: 'catalog-order-by-name-within-source',
    rule: 'Skills of one source are ordered by name, not by folder, in the list and the catalog.',
    git: ['home/proj'],
    tree: {
      'home/proj/.agents/skills/a-dir/SKILL.md': skill('zulu', 'Folder a-dir'),
      'home/proj/.agents/skills/b-dir/SKILL.md': skill('alpha', 'Folder b-dir'),
      'home/proj/.github/skills/c-dir/SKILL.md': skill('mike', 'Folder c-dir'),
      'home/proj/.claude/skills/d-dir/SKILL.md': skill('Bravo', 'Folder d-dir, upper case'),
    },
  },
  {
    id: 'hidden-folders-skipped',
    rule: 'Hidden folders inside a root are not read.',
    git: ['home/proj'],
    catalog: false,
    tree: {
      'home/proj/.agents/skills/.hidden/SKILL.md': skill('hid', 'In a hidden folder'),
      'home/proj/.agents/skills/visible/.inner/SKILL.md': skill('inner', 'In a hidden sub-folder'),
      'home/proj/.agents/skills/ok/SKILL.md': skill('ok', 'Visible'),
    },
  },
  {
    id: 'linked-skill-folder',
    rule: 'A link to a skill folder is followed; the path is reported through the link.',
    git: ['home/proj'],
    catalog: false,
    tree: {
      'store/real-skill/SKILL.md': skill('linked', 'Reached through a folder link'),
      'home/proj/.agents/skills/linked': { link: '{root}/store/real-skill' },
      'home/proj/.agents/skills/plain/SKILL.md': skill('plain', 'A plain folder'),
    },
  },
  {
    id: 'linked-skill-file',
    // A SKILL.md linked to a file outside its skill: skillsd's default `contain` mode refuses it on purpose.
    skillsdConfig: { symlinks: 'follow' },
    rule: 'A SKILL.md that is a link to a file is read.',
    git: ['home/proj'],
    catalog: false,
    tree: {
      'store/linked.md': skill('linked-file', 'SKILL.md is a link'),
      'home/proj/.agents/skills/linked-file/SKILL.md': { link: '{root}/store/linked.md' },
    },
  },
  {
    id: 'dangling-link-ignored',
    rule: 'A dangling link in a root is ignored and the other skills load.',
    git: ['home/proj'],
    catalog: false,
    tree: {
      'home/proj/.agents/skills/gone': { link: '{root}/nowhere' },
      'home/proj/.agents/skills/gone-file/SKILL.md': { link: '{root}/nowhere.md' },
      'home/proj/.agents/skills/docx/SKILL.md': DOCX,
    },
  },
  {
    id: 'linked-root-folder',
    rule: 'A skills root that is itself a link to a folder is read.',
    git: ['home/proj'],
    catalog: false,
    tree: {
      'shared/skills/sheets/SKILL.md': SHEETS,
      'home/proj/.github/skills': { link: '{root}/shared/skills' },
    },
  },
  {
    id: 'file-name-case',
    rule: 'Only a file named exactly SKILL.md is a skill; skill.md and Skill.md are not.',
    git: ['home/proj'],
    catalog: false,
    tree: {
      'home/proj/.agents/skills/lower/skill.md': skill('lower', 'Lower-case file name'),
      'home/proj/.agents/skills/mixed/Skill.md': skill('mixed', 'Mixed-case file name'),
      'home/proj/.agents/skills/exact/SKILL.md': skill('exact', 'Exact file name'),
    },
  },

  // Frontmatter.
  {
    id: 'frontmatter-missing',
    rule: 'A SKILL.md without frontmatter is rejected.',
    git: ['home/proj'],
    catalog: false,
    tree: {
      'home/proj/.agents/skills/plain/SKILL.md': '# Plain\n\nNo frontmatter at all.\n',
      'home/proj/.agents/skills/docx/SKILL.md': DOCX,
    },
  },
  {
    id: 'frontmatter-not-first-line',
    rule: 'Frontmatter must open on the very first line: a blank line or a space before `---` rejects the file; a BOM is fine.',
    git: ['home/proj'],
    catalog: false,
    tree: {
      'home/proj/.agents/skills/blank-first/SKILL.md': `\n${skill('blank-first', 'Blank line before the fence')}`,
      'home/proj/.agents/skills/space-fence/SKILL.md': ` ${skill('space-fence', 'Space before the fence')}`,
      'home/proj/.agents/skills/bom/SKILL.md': `\ufeff${skill('bom', 'BOM before the fence')}`,
    },
  },
  {
    id: 'frontmatter-unclosed',
    rule: 'A frontmatter block that never closes rejects the file.',
    git: ['home/proj'],
    catalog: false,
    tree: {
      'home/proj/.agents/skills/open/SKILL.md': '---\nname: open\ndescription: Never closed\n\n# Body\n',
      'home/proj/.agents/skills/docx/SKILL.md': DOCX,
    },
  },
  {
    id: 'frontmatter-empty-or-list',
    rule: 'An empty block, a YAML list or a scalar is accepted: the folder gives the name and the first body line the description.',
    git: ['home/proj'],
    tree: {
      'home/proj/.agents/skills/empty-block/SKILL.md': '---\n---\n\nUse this when nothing else fits.\n',
      'home/proj/.agents/skills/list-block/SKILL.md': raw('- one\n- two'),
      'home/proj/.agents/skills/scalar-block/SKILL.md': raw('just text'),
    },
  },
  {
    id: 'frontmatter-invalid-yaml',
    rule: 'YAML that does not parse rejects the file (an unquoted `: ` in a value, an unterminated quote).',
    git: ['home/proj'],
    catalog: false,
    tree: {
      'home/proj/.agents/skills/colon/SKILL.md': skill('colon', 'Use when: the value holds a colon'),
      'home/proj/.agents/skills/quote/SKILL.md': raw('name: quote\ndescription: "unterminated'),
      'home/proj/.agents/skills/docx/SKILL.md': DOCX,
    },
  },
  {
    id: 'frontmatter-duplicate-key',
    rule: 'A duplicate key rejects the file.',
    git: ['home/proj'],
    catalog: false,
    tree: {
      'home/proj/.agents/skills/twice/SKILL.md': raw('name: twice\ndescription: First\ndescription: Second'),
      'home/proj/.agents/skills/docx/SKILL.md': DOCX,
    },
  },
  {
    id: 'frontmatter-crlf',
    rule: 'CRLF line ends: the description does not keep the carriage return.',
    git: ['home/proj'],
    tree: {
      'home/proj/.agents/skills/crlf/SKILL.md': skill('crlf', '"Windows line ends: CRLF everywhere"').replaceAll(
        '\n',
        '\r\n',
      ),
      'home/proj/.agents/skills/crlf-plain/SKILL.md': skill('crlf-plain', 'Plain CRLF description').replaceAll(
        '\n',
        '\r\n',
      ),
      'home/proj/.agents/skills/crlf-folded/SKILL.md': raw(
        'name: crlf-folded\ndescription: >\n  Folded over\n  two CRLF lines',
      ).replaceAll('\n', '\r\n'),
    },
  },
  {
    id: 'frontmatter-unknown-keys',
    rule: 'Unknown keys are accepted.',
    git: ['home/proj'],
    catalog: false,
    tree: {
      'home/proj/.agents/skills/extra/SKILL.md': skill(
        'extra',
        'Has unknown keys',
        'license: MIT\nversion: 1.2.0\nmetadata:\n  author: someone\nallowed-tools: Bash Read\n',
      ),
    },
  },

  // Names.
  {
    id: 'name-missing-uses-folder',
    rule: 'Without a name the folder name is used; a name different from the folder is kept; an empty name rejects.',
    git: ['home/proj'],
    tree: {
      'home/proj/.agents/skills/from-folder/SKILL.md': raw('description: Named after its folder'),
      'home/proj/.agents/skills/folder-a/SKILL.md': skill('other-name', 'Frontmatter name differs from folder'),
      'home/proj/.agents/skills/blank-name/SKILL.md': raw('name: ""\ndescription: Empty name string'),
    },
  },
  {
    id: 'name-spaces-become-hyphens',
    rule: 'Spaces in a name (frontmatter or folder) become hyphens.',
    git: ['home/proj'],
    tree: {
      'home/proj/.agents/skills/spaced/SKILL.md': skill('pdf tools', 'Name with a space'),
      'home/proj/.agents/skills/folder with spaces/SKILL.md': raw('description: Folder with spaces'),
    },
  },
  {
    id: 'name-space-hyphen-collision',
    rule: '`a b` and `a-b` become one name: the first loaded wins.',
    git: ['home/proj'],
    tree: {
      'home/proj/.github/skills/one/SKILL.md': skill('data tools', 'Spaced name under .github'),
      'home/proj/.agents/skills/two/SKILL.md': skill('data-tools', 'Hyphenated name under .agents'),
    },
  },
  {
    id: 'name-characters',
    rule: 'A name must match ^[A-Za-z0-9][A-Za-z0-9 _.:-]*$: underscores, dots, colons and upper case pass; others reject.',
    git: ['home/proj'],
    catalog: false,
    tree: {
      'home/proj/.agents/skills/ok1/SKILL.md': skill('Data_Tools.v2', 'Upper case, underscore and dot'),
      'home/proj/.agents/skills/ok2/SKILL.md': skill('"ns:skill"', 'A colon'),
      'home/proj/.agents/skills/bad1/SKILL.md': skill('_leading', 'Leading underscore'),
      'home/proj/.agents/skills/bad2/SKILL.md': skill('a/b', 'A slash'),
      'home/proj/.agents/skills/bad3/SKILL.md': skill('café', 'Non-ASCII'),
      'home/proj/.agents/skills/bad4/SKILL.md': skill('-dash', 'Leading hyphen'),
      'home/proj/.agents/skills/bad5/SKILL.md': skill('why?', 'A question mark'),
    },
  },
  {
    id: 'name-length',
    rule: 'A name of 64 characters loads; 65 rejects.',
    git: ['home/proj'],
    catalog: false,
    tree: {
      'home/proj/.agents/skills/n64/SKILL.md': skill('a'.repeat(64), 'Sixty-four characters'),
      'home/proj/.agents/skills/n65/SKILL.md': skill('b'.repeat(65), 'Sixty-five characters'),
    },
  },
  {
    id: 'name-not-a-string',
    rule: 'A name that YAML types as a number, boolean or list rejects the file; a quoted number is a string.',
    git: ['home/proj'],
    catalog: false,
    tree: {
      'home/proj/.agents/skills/number/SKILL.md': raw('name: 123\ndescription: Numeric name'),
      'home/proj/.agents/skills/boolean/SKILL.md': raw('name: true\ndescription: Boolean name'),
      'home/proj/.agents/skills/list/SKILL.md': raw('name: [a, b]\ndescription: List name'),
      'home/proj/.agents/skills/quoted/SKILL.md': raw('name: "456"\ndescription: Quoted number'),
    },
  },
  {
    id: 'folder-name-invalid',
    rule: 'A folder-derived name follows the same character rules as a written one.',
    git: ['home/proj'],
    catalog: false,
    tree: {
      'home/proj/.agents/skills/_under/SKILL.md': raw('description: Folder starts with an underscore'),
      'home/proj/.agents/skills/ünïcode/SKILL.md': raw('description: Non-ASCII folder'),
      'home/proj/.agents/skills/fine.folder/SKILL.md': raw('description: Dotted folder'),
    },
  },

  // Descriptions.
  {
    id: 'description-missing-uses-body',
    rule: 'Without a description the first body line that is not a heading stands in; none gives ""; an empty description stays empty.',
    git: ['home/proj'],
    tree: {
      'home/proj/.agents/skills/nodesc/SKILL.md': '---\nname: nodesc\n---\n\n# Heading line\n\nSecond paragraph.\n',
      'home/proj/.agents/skills/nobody/SKILL.md': '---\nname: nobody\n---\n',
      'home/proj/.agents/skills/blank/SKILL.md': '---\nname: blank\ndescription: ""\n---\n\nBody after blank.\n',
    },
  },
  {
    id: 'description-not-a-string',
    rule: 'A description YAML types as a number, boolean, list or map rejects the file.',
    git: ['home/proj'],
    catalog: false,
    tree: {
      'home/proj/.agents/skills/number/SKILL.md': raw('name: number\ndescription: 42'),
      'home/proj/.agents/skills/boolean/SKILL.md': raw('name: boolean\ndescription: false'),
      'home/proj/.agents/skills/list/SKILL.md': raw('name: list\ndescription:\n  - a\n  - b'),
      'home/proj/.agents/skills/map/SKILL.md': raw('name: map\ndescription:\n  key: value'),
    },
  },
  {
    id: 'description-length',
    rule: 'A description of 1,024 characters loads; 1,025 rejects.',
    git: ['home/proj'],
    catalog: false,
    tree: {
      'home/proj/.agents/skills/d1024/SKILL.md': skill('d1024', 'x'.repeat(1024)),
      'home/proj/.agents/skills/d1025/SKILL.md': skill('d1025', 'y'.repeat(1025)),
    },
  },
  {
    id: 'description-multiline',
    rule: 'Folded, literal and multi-line plain descriptions keep YAML’s value (a literal block keeps its line break).',
    git: ['home/proj'],
    tree: {
      'home/proj/.agents/skills/folded/SKILL.md': raw('name: folded\ndescription: >\n  Folded text\n  on two lines'),
      'home/proj/.agents/skills/literal/SKILL.md': raw('name: literal\ndescription: |\n  Literal text\n  on two lines'),
      'home/proj/.agents/skills/plain-multi/SKILL.md': raw('name: plain-multi\ndescription: Plain text\n  continued'),
    },
  },

  // Duplicates.
  {
    id: 'duplicate-project-over-user',
    rule: 'A project skill beats a personal skill of the same name.',
    git: ['home/proj'],
    tree: {
      'home/proj/.claude/skills/pdf/SKILL.md': skill('pdf', 'Project copy under .claude'),
      'home/.copilot/skills/pdf/SKILL.md': skill('pdf', 'Personal copy under ~/.copilot'),
      'home/.agents/skills/docx/SKILL.md': skill('docx', 'Personal copy under ~/.agents'),
      'home/.copilot/skills/docx/SKILL.md': skill('docx', 'Personal copy under ~/.copilot'),
    },
  },
  {
    id: 'duplicate-first-project-root',
    rule: 'Between project roots the first in root order wins (.github before .agents before .claude).',
    git: ['home/proj'],
    catalog: false,
    tree: {
      'home/proj/.claude/skills/pdf/SKILL.md': skill('pdf', 'Copy under .claude'),
      'home/proj/.agents/skills/pdf/SKILL.md': skill('pdf', 'Copy under .agents'),
      'home/proj/.github/skills/pdf/SKILL.md': skill('pdf', 'Copy under .github'),
    },
  },
  {
    id: 'duplicate-nearest-level',
    rule: 'Between levels of the walk the workspace level wins over the repository root.',
    git: ['home/proj'],
    cwd: 'home/proj/pkg',
    catalog: false,
    tree: {
      'home/proj/.agents/skills/pdf/SKILL.md': skill('pdf', 'Copy at the repository root'),
      'home/proj/pkg/.agents/skills/pdf/SKILL.md': skill('pdf', 'Copy in the workspace'),
    },
  },
  {
    id: 'duplicate-builtin-name',
    rule: 'A file skill named like a built-in skill replaces it in the list and the catalog.',
    git: ['home/proj'],
    tree: {
      'home/proj/.agents/skills/github-pr-media/SKILL.md': skill('github-pr-media', 'Our own PR media uploader'),
    },
  },

  // Catalog.
  {
    id: 'catalog-hides-disable-model-invocation',
    rule: '`disable-model-invocation: true` keeps a skill loaded but out of the catalog.',
    git: ['home/proj'],
    tree: {
      'home/proj/.agents/skills/manual/SKILL.md': skill(
        'manual',
        'Only by slash command',
        'disable-model-invocation: true\n',
      ),
      'home/proj/.agents/skills/auto/SKILL.md': skill('auto', 'Model may invoke', 'disable-model-invocation: false\n'),
      'home/proj/.agents/skills/docx/SKILL.md': DOCX,
    },
  },
  {
    id: 'catalog-xml-escaping',
    rule: 'Catalog text is XML-escaped.',
    git: ['home/proj'],
    tree: {
      'home/proj/.agents/skills/escape/SKILL.md': skill('escape', '"Tags <b> & \\"quotes\\" and \'apostrophes\'"'),
    },
  },
  {
    id: 'catalog-empty-project',
    rule: 'With no file skills the catalog holds only the built-in skills.',
    git: ['home/proj'],
    tree: {},
  },
  {
    id: 'catalog-budget-overflow',
    rule: 'Whole entries are kept while they total at most 15,000 characters; the rest are named on one line.',
    git: ['home/proj'],
    tree: many('home/proj/.agents/skills', 'task', 18, 900),
  },
  {
    id: 'catalog-budget-exactly-full',
    rule: 'Fifteen entries of 1,000 characters (15,000 in all) stay whole; the built-in entries after them overflow.',
    git: ['home/proj'],
    tree: many('home/proj/.agents/skills', 'job', 15, 900),
  },
  {
    id: 'catalog-budget-one-over',
    rule: 'One character over 15,000 moves the last file entry to the overflow line.',
    git: ['home/proj'],
    tree: many('home/proj/.agents/skills', 'job', 15, 900, 901),
  },
  {
    id: 'catalog-budget-skips-to-smaller',
    rule: 'The first entry that does not fit ends the whole entries: the later ones are only named, even one that would fit.',
    git: ['home/proj'],
    tree: {
      ...many('home/proj/.agents/skills', 'big', 14, 950),
      'home/proj/.agents/skills/small/SKILL.md': skill('small', 'Tiny'),
      'home/proj/.agents/skills/can-not-fit/SKILL.md': skill('can-not-fit', 'x'.repeat(1000)),
    },
  },
  {
    id: 'catalog-hidden-skill-costs-nothing',
    rule: 'A skill with disable-model-invocation takes no part of the allowance.',
    git: ['home/proj'],
    tree: {
      ...many('home/proj/.agents/skills', 'job', 15, 900),
      'home/proj/.agents/skills/aaa-manual/SKILL.md': skill(
        'aaa-manual',
        'y'.repeat(900),
        'disable-model-invocation: true\n',
      ),
    },
  },
  {
    id: 'catalog-budget-claude-model',
    rule: 'The catalog and its allowance do not depend on the model.',
    git: ['home/proj'],
    catalog: { model: 'claude-sonnet-4.5' },
    tree: many('home/proj/.agents/skills', 'task', 18, 900),
  },
  {
    id: 'catalog-budget-small-window',
    rule: 'The catalog allowance does not depend on the context window.',
    git: ['home/proj'],
    catalog: { contextWindow: 16000 },
    tree: many('home/proj/.agents/skills', 'task', 18, 900),
  },
  {
    id: 'order-mixed-sources-many',
    rule: 'Twenty-two skills over project, inherited and personal roots: by name within each source, sources in load order.',
    git: ['home/proj'],
    cwd: 'home/proj/sub',
    catalog: false,
    tree: {
      ...Object.fromEntries(
        ['kilo', 'alpha', 'oscar', 'echo', 'golf', 'quebec'].map((n) => [
          `home/proj/sub/.agents/skills/${n}/SKILL.md`,
          skill(`${n}-here`, `Workspace skill ${n}`),
        ]),
      ),
      ...Object.fromEntries(
        ['lima', 'bravo', 'papa', 'foxtrot', 'hotel', 'romeo'].map((n) => [
          `home/proj/.agents/skills/${n}/SKILL.md`,
          skill(`${n}-top`, `Repository root skill ${n}`),
        ]),
      ),
      ...Object.fromEntries(
        ['mike', 'charlie', 'sierra', 'india', 'delta', 'tango'].map((n) => [
          `home/proj/sub/.github/skills/${n}/SKILL.md`,
          skill(`${n}-gh`, `Workspace .github skill ${n}`),
        ]),
      ),
      ...Object.fromEntries(
        ['november', 'juliet', 'uniform', 'victor'].map((n) => [
          `home/.copilot/skills/${n}/SKILL.md`,
          skill(`${n}-user`, `Personal skill ${n}`),
        ]),
      ),
    },
  },
  {
    id: 'file-large',
    rule: 'A SKILL.md of 1.1 MB is rejected as too large; the other skills load.',
    git: ['home/proj'],
    catalog: false,
    tree: {
      'home/proj/.agents/skills/large/SKILL.md': {
        head: '---\nname: large\ndescription: A very long skill file\n---\n\n',
        size: 1_100_000,
        fill: 'Step. ',
      },
      'home/proj/.agents/skills/docx/SKILL.md': DOCX,
    },
  },
  {
    id: 'file-invalid-utf8',
    rule: 'Invalid UTF-8 in the body of a SKILL.md does not reject it.',
    git: ['home/proj'],
    catalog: false,
    tree: {
      'home/proj/.agents/skills/bytes/SKILL.md': {
        base64: Buffer.from([
          ...Buffer.from('---\nname: bytes\ndescription: Bad bytes below\n---\n\nText '),
          0xff,
          0xfe,
          0x0a,
        ]).toString('base64'),
      },
      'home/proj/.agents/skills/docx/SKILL.md': DOCX,
    },
  },
  {
    id: 'directory-named-skill-md',
    rule: 'A directory named SKILL.md is walked into like any folder.',
    git: ['home/proj'],
    catalog: false,
    tree: {
      'home/proj/.agents/skills/odd/SKILL.md/inner/SKILL.md': skill('inside-odd', 'Below a directory named SKILL.md'),
      'home/proj/.agents/skills/docx/SKILL.md': DOCX,
    },
  },
  {
    id: 'folder-trust-does-not-gate',
    rule: 'Project skills load in a folder that was never trusted, with a config trusting another folder.',
    git: ['home/proj'],
    catalog: false,
    tree: {
      'home/.copilot/config.json': '{ "trusted_folders": ["{root}/elsewhere"] }\n',
      'home/proj/.github/skills/pdf/SKILL.md': PDF,
      'home/proj/.agents/skills/sheets/SKILL.md': SHEETS,
    },
  },
];
