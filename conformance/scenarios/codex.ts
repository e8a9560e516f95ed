// Codex CLI scenarios: docs/agents.md "Codex CLI". Default layout: HOME =
// <root>/home, workspace = <root>/home/proj (a repository where `git` says so). `P` below is the workspace's project.

import type { Scenario, TreeEntry } from '../lib/types.js';

const P = 'home/proj';
const H = 'home';

/** A SKILL.md with the given frontmatter lines (written as they are) and a short body. */
function skillFile(lines: string[], body = '# Usage\n\nFollow the steps below.\n'): string {
  return `---\n${lines.join('\n')}\n---\n\n${body}`;
}

/** A SKILL.md with `name` and `description` (the description unquoted: a `: ` in it makes Codex repair the YAML). */
function skill(name: string, description: string): string {
  return skillFile([`name: ${name}`, `description: ${description}`]);
}

const PDF = 'Extract text and tables from PDF files. Use when: the user attaches a PDF or asks for its contents';
const DOCX = 'Create and edit Word documents: tracked changes, comments and styles';
const SHEETS = 'Read spreadsheets (xlsx, csv) and summarise them. Triggers: "spreadsheet", "table"';
const DEPLOY = 'Deploy the service to staging. Steps: build, push the image, roll out';
const REVIEW = 'Review a pull request for style and correctness';

const b64 = (bytes: number[] | Buffer): { base64: string } => ({ base64: Buffer.from(bytes).toString('base64') });

/** `count` sibling skills `<prefix>-NN` under `dir`, each with the description `describe(i)`. */
function siblings(dir: string, prefix: string, count: number, describe: (i: number) => string) {
  const tree: Record<string, TreeEntry> = {};
  for (let i = 0; i < count; i += 1) {
    const name = `${prefix}-${String(i).padStart(2, '0')}`;
    tree[`${dir}/${name}/SKILL.md`] = skill(name, describe(i));
  }
  return tree;
}

export const scenarios: Scenario[] = [
  // ---- Roots (§2.1, §2.2) ----
  {
    id: 'roots-every-kind',
    rule: "Codex reads .codex/skills, CODEX_HOME/skills and .agents/skills (home and project), no other agent's roots.",
    git: [P],
    tree: {
      [`${P}/.codex/skills/p-codex/SKILL.md`]: skill('p-codex', DEPLOY),
      [`${P}/.agents/skills/p-agents/SKILL.md`]: skill('p-agents', PDF),
      [`${H}/.codex/skills/u-codex/SKILL.md`]: skill('u-codex', DOCX),
      [`${H}/.agents/skills/u-agents/SKILL.md`]: skill('u-agents', SHEETS),
      [`${P}/.claude/skills/p-claude/SKILL.md`]: skill('p-claude', REVIEW),
      [`${H}/.claude/skills/u-claude/SKILL.md`]: skill('u-claude', REVIEW),
      [`${P}/.github/skills/p-github/SKILL.md`]: skill('p-github', REVIEW),
      [`${H}/.config/agents/skills/u-cfg/SKILL.md`]: skill('u-cfg', REVIEW),
      [`${P}/.opencode/skills/p-opencode/SKILL.md`]: skill('p-opencode', REVIEW),
    },
  },
  {
    id: 'codex-home-variable',
    rule: 'CODEX_HOME replaces ~/.codex: $CODEX_HOME/skills is read, ~/.codex/skills is not; ~/.agents/skills stays.',
    git: [P],
    env: { CODEX_HOME: '{root}/ch' },
    tree: {
      'ch/skills/from-codex-home/SKILL.md': skill('from-codex-home', DOCX),
      [`${H}/.codex/skills/from-dot-codex/SKILL.md`]: skill('from-dot-codex', DEPLOY),
      [`${H}/.agents/skills/from-agents/SKILL.md`]: skill('from-agents', SHEETS),
    },
  },
  {
    id: 'codex-home-is-project-codex',
    rule: 'A <d>/.codex that is CODEX_HOME is not a project root: its skills load once, with user scope.',
    git: [P],
    env: { CODEX_HOME: `{cwd}/.codex` },
    tree: {
      [`${P}/.codex/skills/shared-home/SKILL.md`]: skill('shared-home', DEPLOY),
      [`${P}/.agents/skills/proj-agents/SKILL.md`]: skill('proj-agents', PDF),
    },
  },
  {
    id: 'workspace-is-home',
    rule: 'With the workspace at HOME, ~/.codex is CODEX_HOME and ~/.agents/skills is one root, listed once.',
    cwd: H,
    git: [H],
    tree: {
      [`${H}/.codex/skills/home-codex/SKILL.md`]: skill('home-codex', DEPLOY),
      [`${H}/.agents/skills/home-agents/SKILL.md`]: skill('home-agents', PDF),
    },
  },
  {
    id: 'codex-home-missing',
    rule: 'A CODEX_HOME that does not exist: what Codex loads (only ~/.agents/skills can have skills).',
    git: [P],
    env: { CODEX_HOME: '{root}/nowhere' },
    tree: {
      [`${H}/.agents/skills/still-here/SKILL.md`]: skill('still-here', SHEETS),
      [`${H}/.codex/skills/not-read/SKILL.md`]: skill('not-read', DEPLOY),
    },
    catalog: false,
  },
  {
    id: 'codex-home-is-a-file',
    rule: 'A CODEX_HOME that is a regular file: Codex refuses to start and loads nothing.',
    git: [P],
    env: { CODEX_HOME: '{root}/codex-home-file' },
    tree: {
      'codex-home-file': 'not a directory\n',
      [`${H}/.agents/skills/user-skill/SKILL.md`]: skill('user-skill', SHEETS),
      [`${P}/.agents/skills/proj-skill/SKILL.md`]: skill('proj-skill', PDF),
    },
  },
  {
    id: 'dot-codex-is-a-file',
    rule: 'A <d>/.codex that is a regular file is no project root; .agents/skills still is.',
    git: [P],
    tree: {
      [`${P}/.codex`]: 'not a directory\n',
      [`${P}/.agents/skills/still-read/SKILL.md`]: skill('still-read', PDF),
    },
    catalog: false,
  },
  {
    id: 'walk-up-to-repository-root',
    rule: 'In a repository the walk runs from the workspace up to the repository root and never above it.',
    git: [P],
    cwd: `${P}/packages/api`,
    tree: {
      [`${P}/.agents/skills/repo-top/SKILL.md`]: skill('repo-top', PDF),
      [`${P}/packages/api/.agents/skills/pkg-low/SKILL.md`]: skill('pkg-low', DOCX),
      [`${P}/packages/.agents/skills/pkg-mid/SKILL.md`]: skill('pkg-mid', SHEETS),
      [`${P}/.codex/skills/codex-top/SKILL.md`]: skill('codex-top', DEPLOY),
      [`${P}/packages/api/.codex/skills/codex-low/SKILL.md`]: skill('codex-low', REVIEW),
      [`${H}/.agents/skills/above/SKILL.md`]: skill('above-is-user', REVIEW),
      'home/.codex-not-root/skills/x/SKILL.md': skill('x', REVIEW),
      'home/work/.agents/skills/aabove/SKILL.md': skill('aabove', REVIEW),
    },
    catalog: false,
  },
  {
    id: 'walk-outside-repository',
    rule: 'Outside a repository the project is the workspace alone: .agents/skills above it is not read.',
    cwd: `${P}/sub`,
    tree: {
      [`${P}/sub/.agents/skills/here/SKILL.md`]: skill('here', PDF),
      [`${P}/.agents/skills/parent/SKILL.md`]: skill('parent', DOCX),
      [`${P}/.codex/skills/parent-codex/SKILL.md`]: skill('parent-codex', DEPLOY),
      [`${H}/.agents/skills/user-one/SKILL.md`]: skill('user-one', SHEETS),
    },
    catalog: false,
  },
  {
    id: 'empty-git-directory',
    rule: 'An empty .git directory is no repository root for the .codex/skills walk (the .agents/skills walk: see).',
    cwd: `${P}/sub`,
    tree: {
      [`${P}/.git`]: { dir: true },
      [`${P}/.codex/skills/top-codex/SKILL.md`]: skill('top-codex', DEPLOY),
      [`${P}/.agents/skills/top-agents/SKILL.md`]: skill('top-agents', PDF),
      [`${P}/sub/.codex/skills/low-codex/SKILL.md`]: skill('low-codex', REVIEW),
      [`${P}/sub/.agents/skills/low-agents/SKILL.md`]: skill('low-agents', DOCX),
    },
    catalog: false,
  },
  {
    id: 'git-file-marks-project',
    rule: 'A .git file (as in a linked worktree) marks the project root like a .git directory.',
    cwd: `${P}/sub`,
    tree: {
      [`${P}/.git`]: 'gitdir: /nonexistent/worktrees/proj\n',
      [`${P}/.agents/skills/wt-top/SKILL.md`]: skill('wt-top', PDF),
      [`${P}/sub/.agents/skills/wt-low/SKILL.md`]: skill('wt-low', DOCX),
    },
    catalog: false,
  },
  {
    id: 'linked-worktree',
    rule: "A linked worktree is its own project: the main checkout's .agents/skills is not read.",
    git: ['home/main'],
    cwd: 'home/wt',
    setup: [
      // Only the README is committed: the main checkout's skills are not in the worktree's files.
      'git -C home/main add README.md && git -C home/main commit -qm init',
      'git -C home/main worktree add -q ../wt',
    ],
    tree: {
      'home/main/.agents/skills/main-only/SKILL.md': skill('main-only', PDF),
      'home/main/README.md': 'main\n',
    },
    catalog: false,
  },
  {
    id: 'workspace-through-link',
    rule: 'A workspace reached through a symbolic link: which paths Codex reports for project skills.',
    git: [P],
    cwd: 'ws-link',
    tree: {
      'ws-link': { link: 'home/proj' },
      [`${P}/.agents/skills/linked-ws/SKILL.md`]: skill('linked-ws', PDF),
      [`${H}/.agents/skills/user-side/SKILL.md`]: skill('user-side', SHEETS),
    },
  },

  // ---- Layout, hidden entries, links (§2.3) ----
  {
    id: 'skill-md-in-root',
    rule: 'A SKILL.md directly in a root is a skill, named from its frontmatter.',
    git: [P],
    tree: {
      [`${H}/.agents/skills/SKILL.md`]: skill('rootskill', REVIEW),
      [`${H}/.agents/skills/child/SKILL.md`]: skill('child', PDF),
    },
  },
  {
    id: 'depth-six-not-seven',
    rule: 'A SKILL.md six directories below the root is found; seven is not.',
    git: [P],
    tree: {
      [`${P}/.agents/skills/l1/l2/l3/l4/l5/l6/SKILL.md`]: skill('deep6', PDF),
      [`${P}/.agents/skills/m1/m2/m3/m4/m5/m6/m7/SKILL.md`]: skill('deep7', DOCX),
      [`${P}/.agents/skills/top/SKILL.md`]: skill('top', SHEETS),
      [`${P}/.agents/skills/group/inner/SKILL.md`]: skill('inner', DEPLOY),
    },
    catalog: false,
  },
  {
    id: 'nested-skill-folders',
    rule: 'A folder holding SKILL.md is walked on: a SKILL.md below another one is a skill too.',
    git: [P],
    tree: {
      [`${P}/.agents/skills/outer/SKILL.md`]: skill('outer', PDF),
      [`${P}/.agents/skills/outer/nested/SKILL.md`]: skill('nested', DOCX),
      [`${P}/.agents/skills/outer/references/notes.md`]: '# Notes\n',
    },
    catalog: false,
  },
  {
    id: 'hidden-entries',
    rule: 'A path component below the root starting with `.` hides everything under it; a hidden root is read.',
    git: [P],
    tree: {
      [`${P}/.agents/skills/.hidden/SKILL.md`]: skill('hid', PDF),
      [`${P}/.agents/skills/vis/.inner/SKILL.md`]: skill('inner', DOCX),
      [`${P}/.agents/skills/ok/SKILL.md`]: skill('ok', SHEETS),
      [`${H}/.codex/skills/.system/sys/SKILL.md`]: skill('sys', DEPLOY),
    },
    catalog: false,
  },
  {
    id: 'link-to-hidden-directory',
    rule: 'A visible directory link to a hidden directory is followed; the path is the canonical one.',
    git: [P],
    tree: {
      [`${P}/.agents/skills/.store/real/SKILL.md`]: skill('via-link', PDF),
      [`${P}/.agents/skills/visible`]: { link: '.store/real' },
    },
  },
  {
    id: 'directory-link-between-roots',
    rule: 'One file reached from two roots loads once, from the first root in root order, at its canonical path.',
    git: [P],
    tree: {
      [`${P}/.agents/skills/real/SKILL.md`]: skill('real', PDF),
      [`${H}/.agents/skills/alias`]: { link: '{cwd}/.agents/skills/real' },
      [`${P}/.agents/skills/other/SKILL.md`]: skill('other', DOCX),
    },
  },
  {
    id: 'skill-md-is-link',
    rule: 'A SKILL.md that is itself a symbolic link is never found.',
    git: [P],
    tree: {
      'store/linked.md': skill('linked', PDF),
      [`${P}/.agents/skills/linked/SKILL.md`]: { link: '{root}/store/linked.md' },
      [`${P}/.agents/skills/plain/SKILL.md`]: skill('plain', DOCX),
    },
    catalog: false,
  },
  {
    id: 'link-loop-and-dangling',
    rule: 'A directory link loop is walked once and a dangling link is ignored.',
    git: [P],
    tree: {
      [`${P}/.agents/skills/loop/SKILL.md`]: skill('loop', PDF),
      [`${P}/.agents/skills/loop/again`]: { link: '..' },
      [`${P}/.agents/skills/dangling`]: { link: '{root}/missing-target' },
      [`${P}/.agents/skills/fine/SKILL.md`]: skill('fine', DOCX),
    },
    catalog: false,
  },
  {
    id: 'root-is-link',
    rule: 'A root that is itself a directory link is read; paths are canonical.',
    git: [P],
    tree: {
      'shared-skills/team/SKILL.md': skill('team', DEPLOY),
      [`${H}/.agents/skills`]: { link: '{root}/shared-skills' },
    },
  },
  {
    id: 'skill-md-as-directory',
    rule: 'A directory named SKILL.md is walked into like any folder.',
    git: [P],
    tree: {
      [`${P}/.agents/skills/odd/SKILL.md/SKILL.md`]: skill('inside-dir', PDF),
      [`${P}/.agents/skills/fine/SKILL.md`]: skill('fine', DOCX),
    },
    catalog: false,
  },
  {
    id: 'file-name-exact-case',
    rule: 'Only a file named exactly SKILL.md is a skill (skill.md, Skill.md and SKILL.markdown are not).',
    git: [P],
    tree: {
      [`${P}/.agents/skills/lower/skill.md`]: skill('lower', PDF),
      [`${P}/.agents/skills/mixed/Skill.md`]: skill('mixed', DOCX),
      [`${P}/.agents/skills/long/SKILL.markdown`]: skill('long', SHEETS),
      [`${P}/.agents/skills/exact/SKILL.md`]: skill('exact', DEPLOY),
    },
    catalog: false,
  },
  {
    id: 'traversal-limit',
    rule: "Past 2,000 directories in one root the walk stops with Codex's traversal-limit warning.",
    git: [P],
    tree: {
      ...Object.fromEntries(
        Array.from({ length: 2100 }, (_, i) => [
          `${P}/.agents/skills/bulk/d${String(i).padStart(4, '0')}`,
          { dir: true },
        ]),
      ),
      [`${P}/.agents/skills/aaa-first/SKILL.md`]: skill('aaa-first', PDF),
      [`${P}/.agents/skills/zzz-last/SKILL.md`]: skill('zzz-last', DOCX),
      [`${P}/.agents/skills/aaa-first/below/SKILL.md`]: skill('below-first', REVIEW),
      [`${P}/.agents/skills/zzz-last/below/SKILL.md`]: skill('below-last', DEPLOY),
      [`${H}/.agents/skills/other-root/SKILL.md`]: skill('other-root', SHEETS),
    },
    catalog: false,
  },

  // ---- Frontmatter (§2.4) ----
  {
    id: 'frontmatter-missing-or-unclosed',
    rule: 'No opening ---, no closing ---, or an empty block: the file is rejected (missing YAML frontmatter).',
    git: [P],
    tree: {
      [`${P}/.agents/skills/no-fence/SKILL.md`]: '# No frontmatter\n\nname: no-fence\n',
      [`${P}/.agents/skills/unclosed/SKILL.md`]: '---\nname: unclosed\ndescription: Never closed\n\n# Body\n',
      [`${P}/.agents/skills/empty-block/SKILL.md`]: '---\n---\n# Body\n',
      [`${P}/.agents/skills/late-fence/SKILL.md`]: '\n---\nname: late-fence\ndescription: Blank first line\n---\n',
      [`${P}/.agents/skills/good/SKILL.md`]: skill('good', PDF),
    },
    catalog: false,
  },
  {
    id: 'fence-with-spaces',
    rule: 'Fence lines are compared after trimming: `---  ` opens and closes a block.',
    git: [P],
    tree: {
      [`${P}/.agents/skills/spaced/SKILL.md`]:
        '---   \nname: spaced\ndescription: Fences with trailing spaces\n  ---\n# Body\n',
      [`${P}/.agents/skills/dashes4/SKILL.md`]: '----\nname: dashes4\ndescription: Four dashes\n----\n# Body\n',
    },
    catalog: false,
  },
  {
    id: 'bom-rejected',
    rule: 'A UTF-8 BOM before the opening --- is not stripped: the file is rejected.',
    git: [P],
    tree: {
      [`${P}/.agents/skills/bom/SKILL.md`]: b64(
        Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(skill('bom', PDF))]),
      ),
      [`${P}/.agents/skills/plain/SKILL.md`]: skill('plain', DOCX),
    },
    catalog: false,
  },
  {
    id: 'invalid-utf8-rejected',
    rule: 'Invalid UTF-8 anywhere in the file, even in the body, rejects it.',
    git: [P],
    tree: {
      [`${P}/.agents/skills/bad-body/SKILL.md`]: b64(
        Buffer.concat([Buffer.from(skill('bad-body', PDF)), Buffer.from([0xff, 0xfe, 0x0a])]),
      ),
      [`${P}/.agents/skills/bad-desc/SKILL.md`]: b64(
        Buffer.concat([
          Buffer.from('---\nname: bad-desc\ndescription: caf'),
          Buffer.from([0xe9]),
          Buffer.from('\n---\n'),
        ]),
      ),
      [`${P}/.agents/skills/latin/SKILL.md`]: skill('latin', 'Résumé and naïve café: accents are fine'),
    },
  },
  {
    id: 'crlf-line-endings',
    rule: 'A file with CRLF line endings loads, and no description keeps a carriage return.',
    git: [P],
    tree: {
      [`${P}/.agents/skills/crlf/SKILL.md`]:
        '---\r\nname: crlf\r\ndescription: Windows line endings: CRLF\r\n---\r\n\r\n# Body\r\n',
      [`${P}/.agents/skills/crlf-block/SKILL.md`]:
        '---\r\nname: crlf-block\r\ndescription: >\r\n  Folded over\r\n  two lines\r\n---\r\n# Body\r\n',
    },
  },
  {
    id: 'repair-unquoted-colon',
    rule: 'YAML that fails on an unquoted `: ` value is repaired by quoting such values, and the file loads.',
    git: [P],
    tree: {
      [`${P}/.agents/skills/colon/SKILL.md`]: skillFile(['name: colon', 'description: Use when: the user asks: twice']),
      [`${P}/.agents/skills/quote-in/SKILL.md`]: skillFile([
        'name: quote-in',
        "description: It's here: with an apostrophe # and a comment",
      ]),
      [`${P}/.agents/skills/url/SKILL.md`]: skillFile([
        'name: url',
        'description: See https://example.com/docs for more',
      ]),
      [`${P}/.agents/skills/name-colon/SKILL.md`]: skillFile(['name: team: tools', 'description: Name with a colon']),
    },
  },
  {
    id: 'repair-flow-starts',
    rule: 'Values starting with [, {, @ or a backtick that are not YAML by themselves are quoted by the repair.',
    git: [P],
    tree: {
      [`${P}/.agents/skills/bracket/SKILL.md`]: skillFile(['name: bracket', 'description: [beta] Extract: tables']),
      [`${P}/.agents/skills/brace/SKILL.md`]: skillFile(['name: brace', 'description: {json} output: pretty']),
      [`${P}/.agents/skills/at/SKILL.md`]: skillFile(['name: at', 'description: @team owns this: ask them']),
      [`${P}/.agents/skills/tick/SKILL.md`]: skillFile(['name: tick', 'description: `make build`: runs the build']),
      [`${P}/.agents/skills/at-only/SKILL.md`]: skillFile(['name: at-only', 'description: @mention the owner']),
    },
  },
  {
    id: 'repair-leaves-block-scalars',
    rule: 'The repair leaves block scalars and quoted values alone; a block it cannot repair rejects the file.',
    git: [P],
    tree: {
      [`${P}/.agents/skills/block/SKILL.md`]: skillFile([
        'name: block',
        'description: |',
        '  Step one: read the file',
        '  Step two: summarise',
        'metadata:',
        '  owner: docs: team',
      ]),
      [`${P}/.agents/skills/broken/SKILL.md`]: skillFile(['name: broken', 'description: "unterminated']),
      [`${P}/.agents/skills/tabbed/SKILL.md`]: skillFile(['name: tabbed', 'description: ok', '\tbad: indent']),
    },
  },
  {
    id: 'duplicate-keys-rejected',
    rule: 'A duplicate key in the frontmatter rejects the file.',
    git: [P],
    tree: {
      [`${P}/.agents/skills/dup-name/SKILL.md`]: skillFile(['name: first', 'description: Two names', 'name: second']),
      [`${P}/.agents/skills/dup-desc/SKILL.md`]: skillFile(['name: dup-desc', 'description: one', 'description: two']),
      [`${P}/.agents/skills/dup-other/SKILL.md`]: skillFile([
        'name: dup-other',
        'description: ok',
        'tags: a',
        'tags: b',
      ]),
      [`${P}/.agents/skills/single/SKILL.md`]: skill('single', PDF),
    },
    catalog: false,
  },
  {
    id: 'non-string-names',
    rule: 'A number or boolean name is taken as written; a list or map name rejects the file.',
    git: [P],
    tree: {
      [`${P}/.agents/skills/n-int/SKILL.md`]: skillFile(['name: 123', 'description: Integer name']),
      [`${P}/.agents/skills/n-bool/SKILL.md`]: skillFile(['name: true', 'description: Boolean name']),
      [`${P}/.agents/skills/n-float/SKILL.md`]: skillFile(['name: 1.50', 'description: Float name']),
      [`${P}/.agents/skills/n-null/SKILL.md`]: skillFile(['name: null', 'description: Null name']),
      [`${P}/.agents/skills/n-list/SKILL.md`]: skillFile(['name: [a, b]', 'description: List name']),
      [`${P}/.agents/skills/n-map/SKILL.md`]: skillFile(['name: {a: 1}', 'description: Map name']),
    },
    catalog: false,
  },
  {
    id: 'non-string-descriptions',
    rule: 'A number, boolean or flow-map description loads as text; a list, a block map or null rejects the file.',
    git: [P],
    tree: {
      [`${P}/.agents/skills/d-int/SKILL.md`]: skillFile(['name: d-int', 'description: 42']),
      [`${P}/.agents/skills/d-bool/SKILL.md`]: skillFile(['name: d-bool', 'description: false']),
      [`${P}/.agents/skills/d-float/SKILL.md`]: skillFile(['name: d-float', 'description: 3.10']),
      [`${P}/.agents/skills/d-map/SKILL.md`]: skillFile(['name: d-map', 'description:', '  when: always']),
      [`${P}/.agents/skills/d-list/SKILL.md`]: skillFile(['name: d-list', 'description: [one, two]']),
      [`${P}/.agents/skills/d-null/SKILL.md`]: skillFile(['name: d-null', 'description: ~']),
      [`${P}/.agents/skills/d-flow-map/SKILL.md`]: skillFile(['name: d-flow-map', 'description: {when: always}']),
    },
  },
  {
    id: 'frontmatter-list-or-scalar',
    rule: 'A frontmatter block that is a list or a plain scalar, not a map, is rejected.',
    git: [P],
    tree: {
      [`${P}/.agents/skills/as-list/SKILL.md`]: skillFile(['- name: as-list', '- description: a list']),
      [`${P}/.agents/skills/as-scalar/SKILL.md`]: skillFile(['just some text']),
      [`${P}/.agents/skills/ok/SKILL.md`]: skill('ok', PDF),
    },
    catalog: false,
  },
  {
    id: 'fifo-and-large-file',
    rule: 'A SKILL.md over 1 MB loads (no size limit); a named pipe named SKILL.md does not stop the scan.',
    git: [P],
    tree: {
      [`${P}/.agents/skills/big/SKILL.md`]: { head: skillFile(['name: big', `description: ${DOCX}`]), size: 1_100_000 },
      [`${P}/.agents/skills/pipe/SKILL.md`]: { fifo: true },
      [`${P}/.agents/skills/small/SKILL.md`]: skill('small', PDF),
    },
    catalog: false,
  },

  // ---- Name, description, metadata (§2.5) ----
  {
    id: 'name-whitespace-and-fallback',
    rule: 'Name whitespace collapses; an empty or missing name falls back to the folder name.',
    git: [P],
    tree: {
      [`${P}/.agents/skills/spaced/SKILL.md`]: skillFile(['name: "  pdf   tools\t kit "', `description: ${PDF}`]),
      [`${P}/.agents/skills/from-folder/SKILL.md`]: skillFile([`description: ${DOCX}`]),
      [`${P}/.agents/skills/empty-name/SKILL.md`]: skillFile(['name: ""', `description: ${SHEETS}`]),
      [`${P}/.agents/skills/blank name  folder/SKILL.md`]: skillFile(['name: "   "', `description: ${DEPLOY}`]),
      [`${P}/.agents/skills/Upper_Case.Name/SKILL.md`]: skillFile([`description: ${REVIEW}`]),
    },
  },
  {
    id: 'name-length-64',
    rule: 'A name of 64 characters loads, 65 is rejected; characters are counted, not bytes.',
    git: [P],
    tree: {
      [`${P}/.agents/skills/n64/SKILL.md`]: skill('a'.repeat(64), PDF),
      [`${P}/.agents/skills/n65/SKILL.md`]: skill('b'.repeat(65), DOCX),
      [`${P}/.agents/skills/u64/SKILL.md`]: skill('é'.repeat(64), SHEETS),
      [`${P}/.agents/skills/u65/SKILL.md`]: skill('ü'.repeat(65), DEPLOY),
      [`${P}/.agents/skills/${'f'.repeat(70)}/SKILL.md`]: skillFile([`description: ${REVIEW}`]),
      [`${P}/.agents/skills/spaces64/SKILL.md`]: skillFile([
        `name: "${'c'.repeat(32)}     ${'d'.repeat(31)}"`,
        'description: ok',
      ]),
    },
    catalog: false,
  },
  {
    id: 'name-any-characters',
    rule: 'Names have no character set rule: slashes, dots, unicode and uppercase load as written.',
    git: [P],
    tree: {
      [`${P}/.agents/skills/a/SKILL.md`]: skill('My Skill.v2', PDF),
      [`${P}/.agents/skills/b/SKILL.md`]: skill('team/pdf', DOCX),
      [`${P}/.agents/skills/c/SKILL.md`]: skill('日本語スキル', SHEETS),
      [`${P}/.agents/skills/d/SKILL.md`]: skillFile(["name: '$dollar'", `description: ${DEPLOY}`]),
    },
  },
  {
    id: 'description-missing-or-blank',
    rule: 'A missing, empty or blank description rejects the file (missing field `description`).',
    git: [P],
    tree: {
      [`${P}/.agents/skills/none/SKILL.md`]: skillFile(['name: none']),
      [`${P}/.agents/skills/empty/SKILL.md`]: skillFile(['name: empty', 'description: ""']),
      [`${P}/.agents/skills/blank/SKILL.md`]: skillFile(['name: blank', 'description: "   "']),
      [`${P}/.agents/skills/ok/SKILL.md`]: skill('ok', PDF),
    },
    catalog: false,
  },
  {
    id: 'description-whitespace',
    rule: 'Description whitespace runs (newlines, tabs) become one space and the ends are trimmed.',
    git: [P],
    tree: {
      [`${P}/.agents/skills/folded/SKILL.md`]: skillFile([
        'name: folded',
        'description: >',
        '  Line one:',
        '  line two.',
        '',
        '  Para two.',
      ]),
      [`${P}/.agents/skills/literal/SKILL.md`]: skillFile([
        'name: literal',
        'description: |',
        '  First\tline',
        '    indented',
        '  last',
      ]),
      [`${P}/.agents/skills/quoted/SKILL.md`]: skillFile(['name: quoted', 'description: "  padded\\n\\ttext  "']),
      [`${P}/.agents/skills/plain-multi/SKILL.md`]: skillFile([
        'name: plain-multi',
        'description: spans',
        '  two lines',
      ]),
    },
  },
  {
    id: 'metadata-short-description',
    rule: 'metadata.short-description is read but does not replace the description the loader and catalog show.',
    git: [P],
    tree: {
      [`${P}/.agents/skills/short/SKILL.md`]: skillFile([
        'name: short',
        `description: ${PDF}`,
        'metadata:',
        '  short-description: PDF helper',
      ]),
      [`${P}/.agents/skills/short-only/SKILL.md`]: skillFile([
        'name: short-only',
        'metadata:',
        '  short-description: only short',
      ]),
    },
  },
  {
    id: 'openai-yaml-policies',
    rule: 'agents/openai.yaml: implicit invocation off hides a skill from the catalog; products without codex drop it.',
    git: [P],
    tree: {
      [`${P}/.agents/skills/implicit-off/SKILL.md`]: skill('implicit-off', PDF),
      [`${P}/.agents/skills/implicit-off/agents/openai.yaml`]: 'policy:\n  allow_implicit_invocation: false\n',
      [`${P}/.agents/skills/other-product/SKILL.md`]: skill('other-product', DOCX),
      [`${P}/.agents/skills/other-product/agents/openai.yaml`]: 'policy:\n  products:\n    - chatgpt\n',
      [`${P}/.agents/skills/codex-product/SKILL.md`]: skill('codex-product', SHEETS),
      [`${P}/.agents/skills/codex-product/agents/openai.yaml`]: 'policy:\n  products: [chatgpt, codex]\n',
      [`${P}/.agents/skills/shown/SKILL.md`]: skill('shown', DEPLOY),
    },
  },
  {
    id: 'openai-yaml-case-and-errors',
    rule: 'agents/openai.yaml is looked up in exact lower case only, and an invalid one is ignored (fails open).',
    git: [P],
    tree: {
      [`${P}/.agents/skills/upper/SKILL.md`]: skill('upper', PDF),
      [`${P}/.agents/skills/upper/Agents/OpenAI.yaml`]: 'policy:\n  allow_implicit_invocation: false\n',
      [`${P}/.agents/skills/upper-file/SKILL.md`]: skill('upper-file', REVIEW),
      [`${P}/.agents/skills/upper-file/agents/OPENAI.yaml`]: 'policy:\n  allow_implicit_invocation: false\n',
      [`${P}/.agents/skills/broken-yaml/SKILL.md`]: skill('broken-yaml', DOCX),
      [`${P}/.agents/skills/broken-yaml/agents/openai.yaml`]: 'policy: [unclosed\n  allow_implicit_invocation: false\n',
      [`${P}/.agents/skills/empty-products/SKILL.md`]: skill('empty-products', SHEETS),
      [`${P}/.agents/skills/empty-products/agents/openai.yaml`]: 'policy:\n  products: []\n',
    },
  },

  // ---- Plugin namespaces (docs/agents.md) ----
  {
    id: 'plugin-manifests',
    rule: 'A skill under a folder with .codex-plugin/ or .claude-plugin/plugin.json is named <plugin>:<skill>.',
    git: [P],
    tree: {
      [`${P}/.agents/skills/acme/.codex-plugin/plugin.json`]: '{ "name": "acme", "version": "1.0.0" }\n',
      [`${P}/.agents/skills/acme/skills/pdf/SKILL.md`]: skill('pdf', PDF),
      [`${P}/.agents/skills/claudish/.claude-plugin/plugin.json`]: '{ "name": "claudish" }\n',
      [`${P}/.agents/skills/claudish/skills/docx/SKILL.md`]: skill('docx', DOCX),
      [`${P}/.agents/skills/plain/SKILL.md`]: skill('plain', SHEETS),
    },
  },
  {
    id: 'plugin-manifest-edge-cases',
    rule: 'An empty manifest name falls back to the folder name; an unparsable manifest gives no prefix.',
    git: [P],
    tree: {
      [`${P}/.agents/skills/nameless/.codex-plugin/plugin.json`]: '{ "name": "" }\n',
      [`${P}/.agents/skills/nameless/skills/one/SKILL.md`]: skill('one', PDF),
      [`${P}/.agents/skills/broken/.codex-plugin/plugin.json`]: '{ "name": "broken", \n',
      [`${P}/.agents/skills/broken/skills/two/SKILL.md`]: skill('two', DOCX),
      [`${P}/.agents/skills/both/.codex-plugin/plugin.json`]: '{ "name": "codex-side" }\n',
      [`${P}/.agents/skills/both/.claude-plugin/plugin.json`]: '{ "name": "claude-side" }\n',
      [`${P}/.agents/skills/both/three/SKILL.md`]: skill('three', SHEETS),
    },
  },
  {
    id: 'plugin-manifest-at-repo-root',
    rule: "A plugin manifest at the repository root prefixes every skill of the repository's .agents and .codex roots.",
    git: [P],
    tree: {
      [`${P}/.codex-plugin/plugin.json`]: '{ "name": "repo-plugin" }\n',
      [`${P}/.agents/skills/alpha/SKILL.md`]: skill('alpha', PDF),
      [`${P}/.codex/skills/beta/SKILL.md`]: skill('beta', DOCX),
      [`${H}/.agents/skills/gamma/SKILL.md`]: skill('gamma', SHEETS),
    },
  },
  {
    id: 'plugin-qualified-name-129',
    rule: 'A qualified name <plugin>:<skill> of 129 characters loads; 130 is rejected.',
    git: [P],
    tree: {
      [`${P}/.agents/skills/long/.codex-plugin/plugin.json`]: `{ "name": "${'p'.repeat(64)}" }\n`,
      [`${P}/.agents/skills/long/skills/fits/SKILL.md`]: skill('s'.repeat(64), PDF),
      [`${P}/.agents/skills/longer/.codex-plugin/plugin.json`]: `{ "name": "${'q'.repeat(65)}" }\n`,
      [`${P}/.agents/skills/longer/skills/over/SKILL.md`]: skill('t'.repeat(64), DOCX),
    },
    catalog: false,
  },

  // ---- Duplicates (§2.6) ----
  {
    id: 'duplicate-names-all-load',
    rule: 'Names are not deduplicated: every valid file of the same name loads, from every root.',
    git: [P],
    tree: {
      [`${H}/.agents/skills/pdf/SKILL.md`]: skill('pdf', 'User copy: PDF helper'),
      [`${P}/.agents/skills/pdf/SKILL.md`]: skill('pdf', 'Project copy: PDF helper'),
      [`${P}/.codex/skills/pdf/SKILL.md`]: skill('pdf', 'Codex project copy: PDF helper'),
      [`${H}/.codex/skills/pdf/SKILL.md`]: skill('pdf', 'Codex home copy: PDF helper'),
      [`${P}/.agents/skills/other-folder/SKILL.md`]: skill('pdf', 'Same name, other folder'),
    },
  },

  // ---- Catalog and budget (§2.7) ----
  {
    id: 'catalog-default-window',
    rule: 'At the default window the catalog lists project, then user skills, each by name, with the root table.',
    git: [P],
    tree: {
      [`${P}/.agents/skills/pdf/SKILL.md`]: skill('pdf', PDF),
      [`${P}/.agents/skills/docx/SKILL.md`]: skill('docx', DOCX),
      [`${P}/.codex/skills/deploy/SKILL.md`]: skill('deploy', DEPLOY),
      [`${H}/.agents/skills/sheets/SKILL.md`]: skill('sheets', SHEETS),
      [`${H}/.codex/skills/review/SKILL.md`]: skill('review', REVIEW),
      [`${H}/.agents/skills/Zeta/SKILL.md`]: skill('Zeta', 'Uppercase sorts first by bytes'),
    },
  },
  {
    id: 'catalog-single-root',
    rule: 'With one root the catalog uses absolute paths or the alias table, whichever Codex finds no dearer.',
    git: [P],
    tree: {
      [`${P}/.agents/skills/pdf/SKILL.md`]: skill('pdf', PDF),
      [`${P}/.agents/skills/docx/SKILL.md`]: skill('docx', DOCX),
    },
  },
  {
    id: 'catalog-empty',
    rule: 'No skill at all: no skills section in the prompt.',
    git: [P],
    tree: { [`${P}/README.md`]: '# Nothing here\n' },
  },
  {
    id: 'catalog-long-description-cap',
    rule: 'A description over 1,024 characters is shown as its first 1,021 characters and `...`; 1,024 stays whole.',
    git: [P],
    tree: {
      [`${P}/.agents/skills/long/SKILL.md`]: skill('long', `Long: ${'abcdefghij '.repeat(120)}end`),
      [`${P}/.agents/skills/exact/SKILL.md`]: skill('exact', 'e'.repeat(1024)),
      [`${P}/.agents/skills/one-over/SKILL.md`]: skill('one-over', 'o'.repeat(1025)),
      [`${P}/.agents/skills/wide/SKILL.md`]: skill('wide', 'é'.repeat(1030)),
    },
  },
  {
    id: 'catalog-hidden-and-duplicates',
    rule: 'Skills hidden by openai.yaml stay out of the catalog; two skills of one name both appear.',
    git: [P],
    tree: {
      [`${P}/.agents/skills/secret/SKILL.md`]: skill('secret', 'Only when asked by name: never implicit'),
      [`${P}/.agents/skills/secret/agents/openai.yaml`]: 'policy:\n  allow_implicit_invocation: false\n',
      [`${P}/.agents/skills/pdf/SKILL.md`]: skill('pdf', 'Project PDF: tables'),
      [`${H}/.agents/skills/pdf/SKILL.md`]: skill('pdf', 'User PDF: forms'),
    },
  },
  {
    id: 'catalog-window-zero',
    rule: 'Window 0 (unknown) budgets 8,000 characters: 60 skills with long descriptions get shortened.',
    git: [P],
    catalog: { contextWindow: 0 },
    tree: siblings(
      `${P}/.agents/skills`,
      'tool',
      60,
      (i) => `Tool ${i}: ${'does a careful thing with files. '.repeat(6)}`,
    ),
  },
  {
    id: 'catalog-window-1000-drops',
    rule: 'Window 1,000 (20 tokens): the aliased minimum lines fit for two skills and the user skill is dropped.',
    git: [P],
    catalog: { contextWindow: 1000 },
    tree: {
      [`${P}/.agents/skills/alpha/SKILL.md`]: skill('alpha', 'd'),
      [`${P}/.agents/skills/beta/SKILL.md`]: skill('beta', 'd'),
      [`${H}/.agents/skills/aaa/SKILL.md`]: skill('aaa', 'd'),
    },
  },
  {
    id: 'catalog-window-1500-shares',
    rule: 'Window 1,500 (30 tokens): description characters are shared out between two skills, no ellipsis.',
    git: [P],
    catalog: { contextWindow: 1500 },
    tree: {
      [`${P}/.agents/skills/alpha/SKILL.md`]: skill('alpha', 'a'.repeat(40)),
      [`${P}/.agents/skills/beta/SKILL.md`]: skill('beta', 'b'.repeat(40)),
    },
  },
  {
    id: 'catalog-window-tiny',
    rule: 'A window so small that no line fits leaves an empty list of available skills.',
    git: [P],
    catalog: { contextWindow: 50 },
    tree: {
      [`${P}/.agents/skills/pdf/SKILL.md`]: skill('pdf', PDF),
      [`${H}/.agents/skills/docx/SKILL.md`]: skill('docx', DOCX),
    },
  },
  {
    id: 'catalog-window-small-many-roots',
    rule: 'Window 20,000 (400 tokens) over four roots: the root table costs from the second root on.',
    git: [P],
    catalog: { contextWindow: 20_000 },
    tree: {
      ...siblings(
        `${P}/.agents/skills`,
        'proj',
        6,
        (i) => `Project task ${i}: ${'build and test the code. '.repeat(3)}`,
      ),
      ...siblings(`${P}/.codex/skills`, 'cdx', 4, (i) => `Codex task ${i}: ${'review the diff. '.repeat(3)}`),
      ...siblings(`${H}/.agents/skills`, 'user', 5, (i) => `User task ${i}: ${'write the notes. '.repeat(3)}`),
      ...siblings(`${H}/.codex/skills`, 'home', 3, (i) => `Home task ${i}: ${'plan the week. '.repeat(3)}`),
    },
  },
  {
    id: 'catalog-default-window-overflow',
    rule: 'At the default window (5,440 tokens) 120 skills overflow: descriptions are shortened or dropped.',
    git: [P],
    tree: siblings(
      `${P}/.agents/skills`,
      'skill',
      120,
      (i) => `Skill number ${i}: ${'handles a common request. '.repeat(8)}`,
    ),
  },
  {
    id: 'catalog-large-window-model',
    rule: 'A model with a 500,000-token window (gpt-6.1-terra) budgets 10,000 tokens.',
    git: [P],
    catalog: { model: 'gpt-6.1-terra' },
    tree: siblings(
      `${P}/.agents/skills`,
      'skill',
      120,
      (i) => `Skill number ${i}: ${'handles a common request. '.repeat(8)}`,
    ),
  },
  {
    id: 'catalog-model-with-how-to-use',
    rule: 'The catalog frame depends on the model: gpt-5.5 adds the "How to use skills" section.',
    git: [P],
    catalog: { model: 'gpt-5.5' },
    tree: {
      [`${P}/.agents/skills/pdf/SKILL.md`]: skill('pdf', PDF),
      [`${H}/.agents/skills/docx/SKILL.md`]: skill('docx', DOCX),
    },
  },
  {
    id: 'catalog-unknown-model',
    rule: 'An unknown model keeps a token budget: 60 long lines stay whole (8,000 characters would cut them).',
    git: [P],
    catalog: { model: 'local-model' },
    tree: siblings(
      `${P}/.agents/skills`,
      'tool',
      60,
      (i) => `Tool ${i}: ${'does a careful thing with files. '.repeat(6)}`,
    ),
  },
];
