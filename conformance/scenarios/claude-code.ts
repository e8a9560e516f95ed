// Claude Code 2.1.328 scenarios: docs/agents.md "Claude Code", one rule each.
// Default layout: HOME = <root>/home, workspace = <root>/home/proj.

import type { Scenario, TreeEntry } from '../lib/types.js';

/** A SKILL.md with a description and optional extra frontmatter lines. */
function skill(description: string, extra = ''): string {
  return `---\ndescription: ${description}\n${extra}---\n\n# Instructions\n\nFollow the steps.\n`;
}

const P = 'home/proj/.claude/skills';
const U = 'home/.claude/skills';
const PDF = skill('Extract text and tables from PDF files: forms, scans and reports');
const DOCX = skill('Edit Word documents: tracked changes, comments and styles');
const CSV = skill('Clean CSV exports: fix encodings, split columns, dedupe rows');
const NOTES = skill('Keep meeting notes: agenda, decisions and action items');

/** `count` skills `<prefix>-NN` under `dir`, each with a description of `length` characters. */
function many(dir: string, prefix: string, count: number, length: number): Record<string, TreeEntry> {
  const tree: Record<string, TreeEntry> = {};
  for (let i = 0; i < count; i++) {
    const name = `${prefix}-${String(i).padStart(2, '0')}`;
    const lead = `Workflow ${name}: `;
    tree[`${dir}/${name}/SKILL.md`] = skill(lead + 'step by step guidance '.repeat(200).slice(0, length - lead.length));
  }
  return tree;
}

export const scenarios: Scenario[] = [
  // Roots
  {
    id: 'user-and-project-roots',
    rule: 'Skills load from ~/.claude/skills and <project>/.claude/skills; the catalog lists user skills first.',
    git: ['home/proj'],
    tree: { [`${U}/notes/SKILL.md`]: NOTES, [`${P}/pdf/SKILL.md`]: PDF, [`${P}/docx/SKILL.md`]: DOCX },
  },
  {
    id: 'claude-config-dir-replaces-user-root',
    rule: 'With CLAUDE_CONFIG_DIR set, the user root is $CLAUDE_CONFIG_DIR/skills and ~/.claude/skills is not read.',
    git: ['home/proj'],
    env: { CLAUDE_CONFIG_DIR: '{root}/config' },
    tree: {
      'config/skills/csv/SKILL.md': CSV,
      'config/commands/triage.md': '---\ndescription: Triage new issues: label and assign\n---\nTriage.\n',
      [`${U}/notes/SKILL.md`]: NOTES,
      'home/.claude/commands/standup.md': 'Summarise yesterday and today for the standup\n',
      [`${P}/pdf/SKILL.md`]: PDF,
    },
    catalog: false,
  },
  {
    id: 'walk-stops-at-repository-root',
    rule: 'The project walk goes from the workspace up to the repository root, nearest first, and not above it.',
    git: ['home/work/proj'],
    cwd: 'home/work/proj/app',
    tree: {
      'home/work/.claude/skills/above/SKILL.md': skill('Above the repository: should not load'),
      'home/work/proj/.claude/skills/top/SKILL.md': skill('Repository root skill: release checklist'),
      'home/work/proj/app/.claude/skills/low/SKILL.md': skill('App folder skill: run the dev server'),
    },
  },
  {
    id: 'walk-without-repository-stops-before-home',
    rule: 'Without a repository the walk goes up from the workspace and stops before HOME (HOME is the user root only).',
    cwd: 'home/work/proj',
    tree: {
      'home/work/.claude/skills/mid/SKILL.md': skill('Work folder skill: weekly report'),
      'home/work/proj/.claude/skills/here/SKILL.md': skill('Workspace skill: lint the code'),
      [`${U}/notes/SKILL.md`]: NOTES,
    },
  },
  {
    id: 'walk-outside-home-without-repository',
    rule: 'A workspace outside HOME with no repository walks up to the filesystem root.',
    cwd: 'work/proj',
    tree: {
      'work/.claude/skills/outer/SKILL.md': skill('Outer folder skill: backup the database'),
      'work/proj/.claude/skills/inner/SKILL.md': skill('Inner folder skill: format SQL'),
      '.claude/skills/rootmost/SKILL.md': skill('Scenario root skill: rotate logs'),
    },
    catalog: false,
  },
  {
    id: 'repository-at-home',
    rule: 'When HOME itself is the repository root, the walk stops before HOME and HOME skills count once, as user.',
    git: ['home'],
    tree: { [`${U}/notes/SKILL.md`]: NOTES, [`${P}/pdf/SKILL.md`]: PDF },
    catalog: false,
  },
  {
    id: 'skills-below-workspace-unseen',
    rule: '.claude/skills folders below the workspace are not read at session start.',
    git: ['home/proj'],
    tree: {
      [`${P}/pdf/SKILL.md`]: PDF,
      'home/proj/packages/web/.claude/skills/web-deploy/SKILL.md': skill('Deploy the web package: build and upload'),
    },
    catalog: false,
  },
  {
    id: 'agents-folders-never-read',
    rule: '.agents/skills is never read, in the project or in HOME.',
    git: ['home/proj'],
    tree: {
      'home/proj/.agents/skills/agents-p/SKILL.md': skill('Project agents skill: should not load'),
      'home/.agents/skills/agents-u/SKILL.md': skill('User agents skill: should not load'),
      [`${P}/pdf/SKILL.md`]: PDF,
    },
    catalog: false,
  },
  {
    id: 'synced-reserved-in-user-root',
    rule: 'The entry `synced` of the user root is reserved and skipped.',
    git: ['home/proj'],
    tree: { [`${U}/synced/SKILL.md`]: skill('Synced from the account: reserved'), [`${U}/notes/SKILL.md`]: NOTES },
    catalog: false,
  },
  {
    id: 'synced-reserved-in-project-root',
    rule: 'The entry `synced` is reserved in project roots too.',
    git: ['home/proj'],
    tree: { [`${P}/synced/SKILL.md`]: skill('A project folder named synced'), [`${P}/pdf/SKILL.md`]: PDF },
    catalog: false,
  },
  {
    id: 'linked-worktree-adds-main-skills',
    rule: "A linked worktree without its own .claude/skills also reads the main checkout's .claude/skills.",
    git: ['home/main'],
    cwd: 'home/wt',
    tree: { 'home/main/.claude/skills/main-only/SKILL.md': skill('Main checkout skill: cut a release') },
    setup: ['git -C home/main commit -q --allow-empty -m init', 'git -C home/main worktree add -q ../wt'],
  },
  {
    id: 'linked-worktree-empty-skills-dir-keeps-main-out',
    rule: "An empty .claude/skills in the linked worktree is enough to keep the main checkout's skills out.",
    git: ['home/main'],
    cwd: 'home/wt',
    tree: { 'home/main/.claude/skills/main-only/SKILL.md': skill('Main checkout skill: cut a release') },
    setup: [
      'git -C home/main commit -q --allow-empty -m init',
      'git -C home/main worktree add -q ../wt',
      'mkdir -p home/wt/.claude/skills',
    ],
    catalog: false,
  },
  {
    id: 'linked-worktree-own-skills-win',
    rule: "A linked worktree with skills of its own reads only those, not the main checkout's.",
    git: ['home/main'],
    cwd: 'home/wt',
    tree: {
      'home/main/.claude/skills/main-only/SKILL.md': skill('Main checkout skill: cut a release'),
      'home/main/.claude/skills/pdf/SKILL.md': skill('Main copy of pdf'),
    },
    setup: [
      'git -C home/main commit -q --allow-empty -m init',
      'git -C home/main worktree add -q ../wt',
      'mkdir -p home/wt/.claude/skills/pdf',
      `printf -- '---\\ndescription: Worktree copy of pdf\\n---\\nBody\\n' > home/wt/.claude/skills/pdf/SKILL.md`,
    ],
    catalog: false,
  },
  {
    id: 'workspace-through-symlink',
    rule: 'A workspace reached through a symbolic link is worked in as its real directory; paths are real.',
    git: ['home/real'],
    cwd: 'home/proj',
    tree: {
      'home/real/.claude/skills/pdf/SKILL.md': PDF,
      'home/proj': { link: 'real' },
    },
    catalog: false,
  },

  // Layout
  {
    id: 'exactly-one-level',
    rule: 'Only <root>/<folder>/SKILL.md loads: deeper folders and a SKILL.md directly in the root do not.',
    git: ['home/proj'],
    tree: {
      [`${P}/pdf/SKILL.md`]: PDF,
      [`${P}/office/docx/SKILL.md`]: DOCX,
      [`${P}/SKILL.md`]: skill('A SKILL.md directly in the root'),
    },
    catalog: false,
  },
  {
    id: 'skill-file-name-is-case-sensitive',
    rule: 'Only a file named exactly SKILL.md is a skill.',
    git: ['home/proj'],
    tree: {
      [`${P}/pdf/SKILL.md`]: PDF,
      [`${P}/lower/skill.md`]: skill('Lower-case file name'),
      [`${P}/mixed/Skill.md`]: CSV,
    },
    catalog: false,
  },
  {
    id: 'folder-link-followed',
    rule: 'A skill folder that is a symbolic link to a folder elsewhere on disk is followed.',
    git: ['home/proj'],
    tree: {
      'store/shared-csv/SKILL.md': CSV,
      [`${P}/csv`]: { link: '{root}/store/shared-csv' },
      [`${P}/pdf/SKILL.md`]: PDF,
    },
    catalog: false,
  },
  {
    id: 'skill-file-link-followed',
    // A SKILL.md linked to a file outside its skill: skillsd's default `contain` mode refuses it on purpose.
    skillsdConfig: { symlinks: 'follow' },
    rule: 'A SKILL.md that is itself a symbolic link is followed.',
    git: ['home/proj'],
    tree: { 'store/docx.md': DOCX, [`${P}/docx/SKILL.md`]: { link: '{root}/store/docx.md' } },
    catalog: false,
  },
  {
    id: 'dangling-links-ignored',
    rule: 'A dangling folder link or SKILL.md link is ignored.',
    git: ['home/proj'],
    tree: {
      [`${P}/gone`]: { link: '{root}/store/missing' },
      [`${P}/broken/SKILL.md`]: { link: '{root}/store/missing.md' },
      [`${P}/pdf/SKILL.md`]: PDF,
    },
    catalog: false,
  },
  {
    id: 'hidden-folder-read',
    rule: 'A skill folder whose name starts with a dot is read like any other.',
    git: ['home/proj'],
    tree: { [`${P}/.secret/SKILL.md`]: skill('Dot folder skill: rotate secrets'), [`${P}/pdf/SKILL.md`]: PDF },
  },
  {
    id: 'same-file-through-two-roots',
    rule: 'One file reached from the user root (a link) and the project root loads once.',
    git: ['home/proj'],
    tree: { [`${P}/pdf/SKILL.md`]: PDF, [`${U}/pdf`]: { link: '{root}/home/proj/.claude/skills/pdf' } },
  },
  {
    id: 'same-file-under-two-names',
    rule: 'One folder linked under a second name in the same root is the same file twice.',
    git: ['home/proj'],
    tree: { [`${P}/pdf/SKILL.md`]: PDF, [`${P}/pdf-alias`]: { link: 'pdf' } },
  },
  {
    id: 'named-pipe-skill-file',
    rule: 'A SKILL.md that is a named pipe does not hang the scan; the other skills load.',
    git: ['home/proj'],
    tree: { [`${P}/pipe/SKILL.md`]: { fifo: true }, [`${P}/pdf/SKILL.md`]: PDF },
    catalog: false,
  },

  // Duplicates
  {
    id: 'user-beats-project',
    rule: 'A user skill wins its name over a project skill of the same folder name.',
    git: ['home/proj'],
    tree: {
      [`${U}/pdf/SKILL.md`]: skill('User copy: PDF tools'),
      [`${P}/pdf/SKILL.md`]: skill('Project copy: PDF tools'),
    },
  },
  {
    id: 'nearer-project-wins',
    rule: 'Between project roots the nearest one to the workspace wins a name.',
    git: ['home/proj'],
    cwd: 'home/proj/app',
    tree: {
      [`${P}/lint/SKILL.md`]: skill('Repository lint rules: eslint and prettier'),
      'home/proj/app/.claude/skills/lint/SKILL.md': skill('App lint rules: stylelint too'),
    },
  },

  // Names
  {
    id: 'names-with-angle-brackets-refused',
    rule: 'A folder name holding < or > is not offered.',
    git: ['home/proj'],
    tree: {
      [`${P}/a<b/SKILL.md`]: skill('Angle bracket folder'),
      [`${P}/x>y/SKILL.md`]: CSV,
      [`${P}/pdf/SKILL.md`]: PDF,
    },
    catalog: false,
  },
  {
    id: 'names-with-invisible-characters-refused',
    rule: 'Folder names holding hidden, direction-changing or blank-like characters are not offered.',
    git: ['home/proj'],
    tree: {
      [`${P}/zero\u200bwidth/SKILL.md`]: skill('Zero-width space in the name'),
      [`${P}/rtl\u202eflip/SKILL.md`]: skill('Right-to-left override in the name'),
      [`${P}/ideo\u3000space/SKILL.md`]: skill('Ideographic space in the name'),
      [`${P}/pdf/SKILL.md`]: PDF,
    },
    catalog: false,
  },
  {
    id: 'names-with-spaces-dots-underscores-load',
    rule: 'Spaces, underscores and dots in folder names are fine.',
    git: ['home/proj'],
    tree: {
      [`${P}/release notes/SKILL.md`]: skill('Write release notes: group by feature'),
      [`${P}/data_clean/SKILL.md`]: CSV,
      [`${P}/v1.2-migrate/SKILL.md`]: skill('Migrate configs from v1 to v2'),
      [`${P}/Upper Case/SKILL.md`]: DOCX,
    },
  },
  {
    id: 'frontmatter-name-is-display-only',
    rule: 'The skill is named by its folder; a different frontmatter name shows as `- folder (name): …`.',
    git: ['home/proj'],
    tree: {
      [`${P}/pdf-tools/SKILL.md`]: skill('PDF helpers: merge and split', 'name: pdf\n'),
      [`${P}/docx/SKILL.md`]: skill('Word helpers', 'name: docx\n'),
    },
  },
  {
    id: 'two-folders-same-display-name',
    rule: 'Two folders with the same frontmatter name both load under their folder names.',
    git: ['home/proj'],
    tree: {
      [`${P}/pdf-a/SKILL.md`]: skill('First PDF skill: merge', 'name: pdf\n'),
      [`${P}/pdf-b/SKILL.md`]: skill('Second PDF skill: split', 'name: pdf\n'),
    },
  },

  // Frontmatter and descriptions
  {
    id: 'description-typed-by-yaml-kept-as-text',
    rule: 'A description YAML reads as a number or boolean is used as its text.',
    git: ['home/proj'],
    tree: {
      [`${P}/answer/SKILL.md`]: '---\ndescription: 42\n---\nBody\n',
      [`${P}/flag/SKILL.md`]: '---\ndescription: true\n---\nBody\n',
      [`${P}/float/SKILL.md`]: '---\ndescription: 1.50\n---\nBody\n',
    },
  },
  {
    id: 'description-line-breaks-joined',
    rule: 'Line breaks in a folded or literal description are joined by one space.',
    git: ['home/proj'],
    tree: {
      [`${P}/folded/SKILL.md`]: '---\ndescription: >\n  Review pull requests:\n  check tests and docs\n---\nBody\n',
      [`${P}/literal/SKILL.md`]: '---\ndescription: |\n  Triage issues\n  label: bug or feature\n---\nBody\n',
      [`${P}/plain/SKILL.md`]: '---\ndescription: Plan sprints\n  across two lines\n---\nBody\n',
    },
  },
  {
    id: 'lenient-yaml-retry-quotes-colons',
    rule: 'A block that fails YAML because of `key: a: b` values is retried with those values quoted.',
    git: ['home/proj'],
    tree: {
      [`${P}/deploy/SKILL.md`]:
        '---\nname: deploy\ndescription: Deploy: build, test: then ship\nwhen_to_use: Use when: the user says ship it\n---\nBody\n',
      [`${P}/pdf/SKILL.md`]: PDF,
    },
  },
  {
    id: 'unparseable-yaml-loads-with-body-description',
    rule: 'A block that still does not parse loads the skill with empty metadata (description from the body).',
    git: ['home/proj'],
    tree: {
      [`${P}/broken/SKILL.md`]: '---\nname: broken\ndescription: "unterminated\n---\n\nBody text of the broken skill\n',
      [`${P}/listy/SKILL.md`]: '---\n- just\n- a list\n---\n\nList frontmatter body line\n',
    },
  },
  {
    id: 'fence-closes-inside-a-line',
    rule: 'The block ends at the first `---` after the opening line, even inside a line.',
    git: ['home/proj'],
    tree: {
      [`${P}/inline/SKILL.md`]: '---\ndescription: before --- after\n---\nBody\n',
      [`${P}/dashes/SKILL.md`]:
        '---\nname: dashes\ndescription: Em dash---style notes\nwhen_to_use: always\n---\nBody\n',
    },
  },
  {
    id: 'description-fallback-first-body-line',
    rule: 'Without a description the first non-empty body line is used, leading #s and the space removed.',
    git: ['home/proj'],
    tree: {
      [`${P}/heading/SKILL.md`]: '---\nname: heading\n---\n\n## Generate changelogs: from commits\n\nMore.\n',
      [`${P}/nofm/SKILL.md`]: '\n\n   Indented first line: no frontmatter at all\nsecond\n',
      [`${P}/hashes/SKILL.md`]: '---\nwhen_to_use: later\n---\n###NoSpace heading\n',
    },
  },
  {
    id: 'description-fallback-cut-at-100',
    rule: 'A fallback line over 100 characters is cut to 97 characters and `...`.',
    git: ['home/proj'],
    tree: {
      [`${P}/exact/SKILL.md`]: `# ${'a'.repeat(100)}\n`,
      [`${P}/over/SKILL.md`]: `# ${'Summarise long documents into short briefs '.repeat(3)}\n`,
    },
  },
  {
    id: 'description-nothing-is-skill',
    rule: 'With no description and no body text the description is `Skill`.',
    git: ['home/proj'],
    tree: {
      [`${P}/empty/SKILL.md`]: '',
      [`${P}/only-fm/SKILL.md`]: '---\nname: only-fm\n---\n',
      [`${P}/blank-desc/SKILL.md`]: '---\ndescription: "   "\n---\n\n',
    },
  },
  {
    id: 'crlf-description-has-no-carriage-return',
    rule: 'A CRLF frontmatter block fails YAML and falls back to the first body line; no description keeps a \\r.',
    git: ['home/proj'],
    tree: {
      [`${P}/crlf/SKILL.md`]: '---\r\nname: crlf\r\ndescription: Windows line endings: CRLF\r\n---\r\nBody\r\n',
      [`${P}/crlf-body/SKILL.md`]: '---\r\nname: crlf-body\r\n---\r\n\r\nBody line in CRLF\r\n',
    },
  },
  {
    id: 'bom-before-fence-ignored',
    rule: 'One byte-order mark before the opening `---` is ignored.',
    git: ['home/proj'],
    tree: {
      [`${P}/bom/SKILL.md`]: {
        base64: Buffer.from('\uFEFF---\ndescription: BOM file: still parsed\n---\nBody\n').toString('base64'),
      },
    },
  },
  {
    id: 'unclosed-frontmatter',
    rule: 'A block that never closes is no block: the first body line (the fence) rules the description.',
    git: ['home/proj'],
    tree: { [`${P}/open/SKILL.md`]: '---\ndescription: never closed\n\n# Heading after\n' },
  },

  // Flags
  {
    id: 'disable-model-invocation-out-of-catalog',
    rule: 'disable-model-invocation (lenient booleans) keeps a loaded skill out of the catalog.',
    git: ['home/proj'],
    tree: {
      [`${P}/manual/SKILL.md`]: skill('Only when the user types it', 'disable-model-invocation: true\n'),
      [`${P}/yes/SKILL.md`]: skill('Hidden with yes', 'disable-model-invocation: yes\n'),
      [`${P}/upper-on/SKILL.md`]: skill('Hidden with ON', 'disable-model-invocation: ON\n'),
      [`${P}/off/SKILL.md`]: skill('Listed with off', 'disable-model-invocation: off\n'),
      [`${P}/pdf/SKILL.md`]: PDF,
    },
  },
  {
    id: 'user-invocable-false-still-listed',
    rule: 'user-invocable: false changes nothing for the model listing.',
    git: ['home/proj'],
    tree: { [`${P}/bg/SKILL.md`]: skill('Background knowledge: API conventions', 'user-invocable: false\n') },
  },
  {
    id: 'paths-makes-a-skill-conditional',
    rule: 'A skill with `paths:` is conditional and not loaded at session start.',
    git: ['home/proj'],
    tree: {
      [`${P}/react/SKILL.md`]: skill('React conventions: hooks and props', 'paths:\n  - "src/**/*.tsx"\n'),
      [`${P}/sql/SKILL.md`]: skill('SQL style', 'paths: "db/**"\n'),
      [`${P}/pdf/SKILL.md`]: PDF,
    },
  },

  // Sizes
  {
    id: 'size-limit-one-million-bytes',
    rule: 'A SKILL.md over 1,000,000 bytes is skipped; exactly 1,000,000 loads.',
    git: ['home/proj'],
    tree: {
      [`${P}/edge/SKILL.md`]: { head: '---\ndescription: Exactly at the limit\n---\n', size: 1_000_000 },
      [`${P}/over/SKILL.md`]: { head: '---\ndescription: One byte over\n---\n', size: 1_000_001 },
    },
    catalog: false,
  },

  // Commands
  {
    id: 'commands-listed-after-skills',
    rule: '.claude/commands/*.md at user and project level load as entries after the skills.',
    git: ['home/proj'],
    tree: {
      [`${P}/pdf/SKILL.md`]: PDF,
      'home/proj/.claude/commands/deploy.md':
        '---\ndescription: Deploy to staging: build and push\n---\nRun the deploy.\n',
      'home/.claude/commands/standup.md': 'Summarise yesterday and today for the standup\n',
      [`${U}/notes/SKILL.md`]: NOTES,
    },
  },
  {
    id: 'commands-in-subfolders',
    rule: 'A command in a subfolder of .claude/commands is named with the folder as a namespace.',
    git: ['home/proj'],
    tree: {
      'home/proj/.claude/commands/ops/restart.md': '---\ndescription: Restart a service\n---\nRestart.\n',
      'home/proj/.claude/commands/review.md': '---\ndescription: Review the diff\n---\nReview.\n',
    },
  },
  {
    id: 'commands-along-the-walk',
    rule: '.claude/commands is read in every directory of the project walk, like .claude/skills.',
    git: ['home/proj'],
    cwd: 'home/proj/app',
    tree: {
      'home/proj/.claude/commands/release.md': '---\ndescription: Cut a release: tag and changelog\n---\nRelease.\n',
      'home/proj/app/.claude/commands/serve.md': '---\ndescription: Serve the app locally\n---\nServe.\n',
    },
  },
  {
    id: 'command-and-skill-same-name',
    rule: 'A command and a skill of the same name: which one is loaded.',
    git: ['home/proj'],
    tree: {
      [`${P}/deploy/SKILL.md`]: skill('Skill deploy: blue-green'),
      'home/proj/.claude/commands/deploy.md': '---\ndescription: Command deploy: rolling\n---\nDeploy.\n',
    },
  },

  // Catalog
  {
    id: 'catalog-order-roots-then-names',
    rule: 'Catalog: user skills, then project roots nearest first, each by name, then commands.',
    git: ['home/proj'],
    cwd: 'home/proj/app',
    tree: {
      [`${U}/zeta/SKILL.md`]: skill('User zeta'),
      [`${U}/alpha/SKILL.md`]: skill('User alpha'),
      [`${P}/beta/SKILL.md`]: skill('Repository beta'),
      [`${P}/Apple/SKILL.md`]: skill('Repository Apple'),
      'home/proj/app/.claude/skills/gamma/SKILL.md': skill('App gamma'),
      'home/proj/.claude/commands/aaa.md': '---\ndescription: Command aaa\n---\nA.\n',
    },
  },
  {
    id: 'catalog-when-to-use-joined',
    rule: 'when_to_use is appended to the description with ` - `.',
    git: ['home/proj'],
    tree: {
      [`${P}/pdf/SKILL.md`]: skill('PDF tools', 'when_to_use: When the user attaches a PDF\n'),
      [`${P}/blank/SKILL.md`]: skill('Blank when', 'when_to_use: ""\n'),
    },
  },
  {
    id: 'catalog-description-cap-1536',
    rule: 'An entry text over 1,536 characters becomes 1,535 characters and `…`.',
    git: ['home/proj'],
    tree: {
      [`${P}/long/SKILL.md`]: skill(`Long guide: ${'read the whole manual first. '.repeat(60)}`.trim()),
      [`${P}/edge/SKILL.md`]: skill('e'.repeat(1536)),
      [`${P}/joined/SKILL.md`]: skill('d'.repeat(1000), `when_to_use: ${'w'.repeat(600)}\n`),
    },
  },
  {
    id: 'catalog-description-cap-counts-utf16',
    rule: 'The 1,536 cap counts UTF-16 code units: a description of emoji is cut after 767 of them.',
    git: ['home/proj'],
    tree: { [`${P}/emoji/SKILL.md`]: skill(`a${'\u{1F600}'.repeat(900)}`) },
  },
  {
    id: 'catalog-budget-default-model',
    rule: 'Default model (1,000,000 tokens): budget 30,000 characters; over it the later entries become name-only.',
    git: ['home/proj'],
    tree: many(P, 'flow', 30, 1200),
  },
  {
    id: 'catalog-budget-sonnet',
    rule: 'A 200,000-token model gets an 8,000-character budget (4 per token); bundled entries stay full.',
    git: ['home/proj'],
    tree: many(P, 'task', 8, 300),
    catalog: { model: 'claude-sonnet-4-5' },
  },
  {
    id: 'catalog-budget-sonnet-1m',
    rule: 'The budget follows the selected model: Sonnet with the 1M window.',
    git: ['home/proj'],
    tree: many(P, 'task', 24, 1200),
    catalog: { model: 'claude-sonnet-4-5[1m]' },
  },
  {
    id: 'catalog-budget-unknown-model',
    rule: 'A model Claude Code does not know gets its fallback window and budget.',
    git: ['home/proj'],
    tree: many(P, 'task', 24, 1200),
    catalog: { model: 'acme-large-2' },
  },
  {
    id: 'catalog-budget-window-500k',
    rule: 'A 500,000-token window gets a 15,000-character budget.',
    git: ['home/proj'],
    tree: many(P, 'step', 16, 900),
    catalog: { contextWindow: 500_000 },
  },
  {
    id: 'catalog-budget-window-100k',
    rule: 'A 100,000-token window: the bundled entries alone fill the budget and every file entry is name-only.',
    git: ['home/proj'],
    tree: { [`${P}/pdf/SKILL.md`]: PDF, [`${P}/docx/SKILL.md`]: DOCX, [`${U}/notes/SKILL.md`]: NOTES },
    catalog: { contextWindow: 100_000 },
  },

  // Plugins
  {
    id: 'plugin-skills-from-installed-plugins',
    rule: 'Skills of an enabled plugin in installed_plugins.json load as `<plugin>:<folder>`, after the file skills.',
    git: ['home/proj'],
    tree: plugin('{home}/market/office', true, {
      'home/market/office/skills/xlsx/SKILL.md': skill('Spreadsheets: formulas and pivots'),
      'home/market/office/skills/slides/SKILL.md': skill('Slide decks: layouts and speaker notes'),
      'home/market/office/skills/macros/SKILL.md': skill('Record macros', 'disable-model-invocation: true\n'),
      [`${P}/xlsx/SKILL.md`]: skill('Project spreadsheet conventions'),
    }),
  },
  {
    id: 'plugin-disabled-in-settings',
    rule: 'A plugin switched off in enabledPlugins contributes no skills.',
    git: ['home/proj'],
    tree: plugin('{home}/market/office', false, {
      'home/market/office/skills/xlsx/SKILL.md': skill('Spreadsheets: formulas and pivots'),
      [`${P}/pdf/SKILL.md`]: PDF,
    }),
    catalog: false,
  },
  {
    id: 'plugin-directory-marketplace-reads-its-source',
    rule: "For a marketplace of source `directory`, the plugin's skills are read from that directory, not installPath.",
    git: ['home/proj'],
    tree: plugin('{home}/.claude/plugins/cache/acme/office/1.0.0', true, {
      'home/market/office/skills/xlsx/SKILL.md': skill('Spreadsheets from the marketplace folder'),
      'home/.claude/plugins/cache/acme/office/1.0.0/.claude-plugin/plugin.json': JSON.stringify({ name: 'office' }),
      'home/.claude/plugins/cache/acme/office/1.0.0/skills/xlsx/SKILL.md': skill('Spreadsheets from the install cache'),
      'home/.claude/plugins/cache/acme/office/1.0.0/skills/charts/SKILL.md': skill('Charts only in the cache'),
    }),
    catalog: false,
  },
];

/**
 * A plugin `office` of a marketplace `acme` whose source is the directory `home/market`, installed (user scope) at
 * `installPath` and switched on or off in ~/.claude/settings.json, plus `files`.
 */
function plugin(installPath: string, enabled: boolean, files: Record<string, TreeEntry>): Record<string, TreeEntry> {
  const at = '2026-01-01T00:00:00.000Z';
  return {
    'home/.claude/plugins/installed_plugins.json': JSON.stringify({
      version: 2,
      plugins: { 'office@acme': [{ scope: 'user', installPath, version: '1.0.0', installedAt: at, lastUpdated: at }] },
    }),
    'home/.claude/plugins/known_marketplaces.json': JSON.stringify({
      acme: {
        source: { source: 'directory', path: '{home}/market' },
        installLocation: '{home}/market',
        lastUpdated: at,
      },
    }),
    'home/market/.claude-plugin/marketplace.json': JSON.stringify({
      name: 'acme',
      owner: { name: 'Acme' },
      plugins: [{ name: 'office', source: './office', description: 'Office documents' }],
    }),
    'home/market/office/.claude-plugin/plugin.json': JSON.stringify({ name: 'office', version: '1.0.0' }),
    'home/.claude/settings.json': JSON.stringify({ enabledPlugins: { 'office@acme': enabled } }),
    ...files,
  };
}
