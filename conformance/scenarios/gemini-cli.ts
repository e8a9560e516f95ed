// Gemini CLI scenarios: docs/agents.md "Gemini CLI". Default layout:
// HOME = <root>/home, workspace = <root>/home/proj. Headless Gemini CLI refuses to run in an untrusted folder, so a
// scenario whose workspace is not trusted asks no catalog (the driver says why).

import type { Scenario, TreeEntry } from '../lib/types.js';

const P = 'home/proj';
const H = 'home';
const TRUST = { GEMINI_CLI_TRUST_WORKSPACE: 'true' };

/** A SKILL.md with the given frontmatter lines (written as they are) and a short body. */
function skillFile(lines: string[], body = '# Usage\n\nFollow the steps below.\n'): string {
  return `---\n${lines.join('\n')}\n---\n\n${body}`;
}

/** A SKILL.md with `name` and `description` written unquoted (a `: ` in it makes the YAML fail: line fallback). */
function skill(name: string, description: string): string {
  return skillFile([`name: ${name}`, `description: ${description}`]);
}

/** A SKILL.md whose description is a quoted YAML string (parsed by YAML, not by the line fallback). */
function quoted(name: string, description: string): string {
  return skillFile([`name: ${name}`, `description: ${JSON.stringify(description)}`]);
}

const PDF = 'Extract text and tables from PDF files. Use when: the user attaches a PDF or asks for its contents';
const DOCX = 'Create and edit Word documents: tracked changes, comments and styles';
const SHEETS = 'Read spreadsheets (xlsx, csv) and summarise them';
const DEPLOY = 'Deploy the service to staging. Steps: build, push the image, roll out';
const REVIEW = 'Review a pull request for style and correctness';
const LINT = 'Run the linters and fix what they report';

const b64 = (text: string): { base64: string } => ({ base64: Buffer.from(text, 'utf8').toString('base64') });

/** The same four skills in every root Gemini CLI reads. */
const FOUR_ROOTS: Record<string, TreeEntry> = {
  [`${H}/.gemini/skills/u-gemini/SKILL.md`]: quoted('u-gemini', DOCX),
  [`${H}/.agents/skills/u-agents/SKILL.md`]: quoted('u-agents', SHEETS),
  [`${P}/.gemini/skills/p-gemini/SKILL.md`]: quoted('p-gemini', DEPLOY),
  [`${P}/.agents/skills/p-agents/SKILL.md`]: quoted('p-agents', REVIEW),
};

/** A user settings file (`~/.gemini/settings.json`) with folder trust switched off. */
const TRUST_OFF = '{ "security": { "folderTrust": { "enabled": false } } }\n';

export const scenarios: Scenario[] = [
  // ---- Roots (§4.2) ----
  {
    id: 'roots-trusted-all-four',
    rule: 'A trusted workspace adds C/.gemini/skills and C/.agents/skills after ~/.gemini/skills and ~/.agents/skills.',
    env: TRUST,
    tree: {
      ...FOUR_ROOTS,
      [`${H}/.claude/skills/u-claude/SKILL.md`]: quoted('u-claude', LINT),
      [`${P}/.claude/skills/p-claude/SKILL.md`]: quoted('p-claude', LINT),
      [`${P}/.github/skills/p-github/SKILL.md`]: quoted('p-github', LINT),
    },
  },
  {
    id: 'roots-untrusted-user-only',
    rule: 'With folder trust on and no rule for the workspace, only the two user roots are read.',
    catalog: false,
    tree: { ...FOUR_ROOTS },
  },
  {
    id: 'roots-no-walk-up',
    rule: 'Project roots are read in the workspace only: a parent directory .gemini/skills or .agents/skills is not.',
    cwd: `${P}/packages/web`,
    env: TRUST,
    catalog: false,
    tree: {
      [`${P}/.gemini/skills/parent-gemini/SKILL.md`]: quoted('parent-gemini', DEPLOY),
      [`${P}/.agents/skills/parent-agents/SKILL.md`]: quoted('parent-agents', REVIEW),
      [`${P}/packages/web/.gemini/skills/web/SKILL.md`]: quoted('web', LINT),
    },
  },
  {
    id: 'roots-workspace-is-home',
    rule: 'When the workspace is HOME, the project roots are the user roots and each file is loaded once.',
    cwd: H,
    env: TRUST,
    catalog: false,
    tree: {
      [`${H}/.gemini/skills/docx/SKILL.md`]: quoted('docx', DOCX),
      [`${H}/.agents/skills/sheets/SKILL.md`]: quoted('sheets', SHEETS),
    },
  },
  {
    id: 'roots-workspace-through-link',
    rule: 'A workspace reached through a symbolic link is worked in by its real path, and paths are reported real.',
    cwd: `${H}/work-link`,
    env: TRUST,
    tree: {
      [`${H}/work-link`]: { link: 'proj' },
      [`${P}/.gemini/skills/deploy/SKILL.md`]: quoted('deploy', DEPLOY),
    },
  },
  {
    id: 'roots-gemini-cli-home',
    rule: 'GEMINI_CLI_HOME moves both user roots (~/.gemini/skills and ~/.agents/skills) away from HOME.',
    env: { GEMINI_CLI_HOME: '{root}/gh', ...TRUST },
    catalog: false,
    tree: {
      [`${H}/.gemini/skills/home-gemini/SKILL.md`]: quoted('home-gemini', DOCX),
      [`${H}/.agents/skills/home-agents/SKILL.md`]: quoted('home-agents', SHEETS),
      'gh/.gemini/skills/gh-gemini/SKILL.md': quoted('gh-gemini', DEPLOY),
      'gh/.agents/skills/gh-agents/SKILL.md': quoted('gh-agents', REVIEW),
    },
  },

  // ---- Trust (docs/agents.md "Gemini CLI") ----
  {
    id: 'trust-env-false',
    rule: 'GEMINI_CLI_TRUST_WORKSPACE=false makes the workspace untrusted even with folder trust switched off.',
    env: { GEMINI_CLI_TRUST_WORKSPACE: 'false' },
    catalog: false,
    tree: { ...FOUR_ROOTS, [`${H}/.gemini/settings.json`]: TRUST_OFF },
  },
  {
    id: 'trust-restricted-mode',
    rule: 'GEMINI_RESTRICTED_MODE=true makes the workspace untrusted, even with GEMINI_CLI_TRUST_WORKSPACE=true.',
    env: { GEMINI_RESTRICTED_MODE: 'true', GEMINI_CLI_TRUST_WORKSPACE: 'true' },
    catalog: false,
    tree: { ...FOUR_ROOTS },
  },
  {
    id: 'trust-restricted-mode-other-value',
    rule: 'GEMINI_RESTRICTED_MODE counts only as the exact text true.',
    env: { GEMINI_RESTRICTED_MODE: '1', GEMINI_CLI_TRUST_WORKSPACE: 'true' },
    catalog: false,
    tree: { ...FOUR_ROOTS },
  },
  {
    id: 'trust-folder-trust-off',
    rule: 'security.folderTrust.enabled false in the user settings makes every workspace trusted.',
    catalog: false,
    tree: { ...FOUR_ROOTS, [`${H}/.gemini/settings.json`]: TRUST_OFF },
  },
  {
    id: 'trust-folder-trust-off-comments',
    rule: 'Settings files are JSON with comments: line and block comments are stripped before parsing.',
    catalog: false,
    tree: {
      ...FOUR_ROOTS,
      [`${H}/.gemini/settings.json`]:
        '// user settings\n{\n  /* trust every folder */\n  "security": { "folderTrust": { "enabled": false } } // off\n}\n',
    },
  },
  {
    id: 'trust-folder-trust-in-workspace-settings',
    rule: 'Folder trust is read from the user settings: switching it off in the workspace settings does not trust the workspace.',
    catalog: false,
    tree: { ...FOUR_ROOTS, [`${P}/.gemini/settings.json`]: TRUST_OFF },
  },
  {
    id: 'trust-settings-trailing-comma',
    rule: 'A settings file with a trailing comma does not parse, and an unparsable settings file stops the CLI: nothing is loaded.',
    catalog: false,
    tree: {
      ...FOUR_ROOTS,
      [`${H}/.gemini/settings.json`]: '{ "security": { "folderTrust": { "enabled": false }, }, }\n',
    },
  },
  {
    id: 'trust-workspace-settings-unparsable',
    rule: 'An unparsable workspace settings file stops the CLI too.',
    env: TRUST,
    catalog: false,
    tree: { ...FOUR_ROOTS, [`${P}/.gemini/settings.json`]: '{ "skills": { "disabled": ["x"] }\n' },
  },
  {
    id: 'trust-rule-trust-folder',
    rule: 'A TRUST_FOLDER rule for the workspace in ~/.gemini/trustedFolders.json trusts it.',
    catalog: false,
    tree: { ...FOUR_ROOTS, [`${H}/.gemini/trustedFolders.json`]: '{ "{cwd}": "TRUST_FOLDER" }\n' },
  },
  {
    id: 'trust-rule-covers-subfolders',
    rule: 'A TRUST_FOLDER rule trusts every folder below it.',
    catalog: false,
    tree: { ...FOUR_ROOTS, [`${H}/.gemini/trustedFolders.json`]: '{ "{home}": "TRUST_FOLDER" }\n' },
  },
  {
    id: 'trust-rule-trust-parent',
    rule: "A TRUST_PARENT rule trusts the rule path's parent directory and everything below it.",
    catalog: false,
    tree: { ...FOUR_ROOTS, [`${H}/.gemini/trustedFolders.json`]: '{ "{cwd}/src": "TRUST_PARENT" }\n' },
  },
  {
    id: 'trust-rule-do-not-trust-nearer',
    rule: 'The longest matching rule wins: DO_NOT_TRUST on the workspace beats TRUST_FOLDER on HOME.',
    catalog: false,
    tree: {
      ...FOUR_ROOTS,
      [`${H}/.gemini/trustedFolders.json`]: '{ "{home}": "TRUST_FOLDER", "{cwd}": "DO_NOT_TRUST" }\n',
    },
  },
  {
    id: 'trust-rule-longest-as-written',
    rule: 'Rules compete by the length of their key as written: a long link path to HOME beats the shorter real workspace path.',
    catalog: false,
    tree: {
      ...FOUR_ROOTS,
      [`${H}/a-rather-long-link-to-home`]: { link: '.' },
      [`${H}/.gemini/trustedFolders.json`]:
        '{ "{cwd}": "TRUST_FOLDER", "{home}/a-rather-long-link-to-home": "DO_NOT_TRUST" }\n',
    },
  },
  {
    id: 'trust-rule-through-link',
    rule: 'A rule is compared by real path: a rule naming a link to the workspace trusts it.',
    catalog: false,
    tree: {
      ...FOUR_ROOTS,
      'elsewhere/proj-link': { link: '../home/proj' },
      [`${H}/.gemini/trustedFolders.json`]: '{ "{root}/elsewhere/proj-link": "TRUST_FOLDER" }\n',
    },
  },
  {
    id: 'trust-rule-other-folder',
    rule: 'A rule for a sibling folder does not trust the workspace.',
    catalog: false,
    tree: {
      ...FOUR_ROOTS,
      [`${H}/.gemini/trustedFolders.json`]: '{ "{home}/proj-other": "TRUST_FOLDER", "{home}/pro": "TRUST_FOLDER" }\n',
    },
  },
  {
    id: 'trust-rules-file-comments',
    rule: 'trustedFolders.json is JSON with comments.',
    catalog: false,
    tree: {
      ...FOUR_ROOTS,
      [`${H}/.gemini/trustedFolders.json`]: '{\n  // the project\n  "{cwd}": "TRUST_FOLDER" /* trusted */\n}\n',
    },
  },
  {
    id: 'trust-rules-file-unknown-level',
    rule: 'An unknown trust level in trustedFolders.json stops the CLI: nothing is loaded.',
    catalog: false,
    tree: { ...FOUR_ROOTS, [`${H}/.gemini/trustedFolders.json`]: '{ "{cwd}": "TRUST_ALWAYS" }\n' },
  },
  {
    id: 'trust-rules-file-not-object',
    rule: 'A trustedFolders.json that is not a JSON object stops the CLI.',
    catalog: false,
    tree: { ...FOUR_ROOTS, [`${H}/.gemini/trustedFolders.json`]: '["{cwd}"]\n' },
  },
  {
    id: 'trust-rules-file-trailing-comma',
    rule: 'A trustedFolders.json with a trailing comma does not parse and stops the CLI.',
    catalog: false,
    tree: { ...FOUR_ROOTS, [`${H}/.gemini/trustedFolders.json`]: '{ "{cwd}": "TRUST_FOLDER", }\n' },
  },
  {
    id: 'trust-rules-file-ignored-when-trust-off',
    rule: 'With folder trust switched off the trustedFolders.json is not read: even a broken one does not stop the CLI.',
    catalog: false,
    tree: {
      ...FOUR_ROOTS,
      [`${H}/.gemini/settings.json`]: TRUST_OFF,
      [`${H}/.gemini/trustedFolders.json`]: '{ "{cwd}": "TRUST_ALWAYS" }\n',
    },
  },
  {
    id: 'trust-rules-file-path-variable',
    rule: 'GEMINI_CLI_TRUSTED_FOLDERS_PATH names the rules file instead of ~/.gemini/trustedFolders.json.',
    env: { GEMINI_CLI_TRUSTED_FOLDERS_PATH: '{root}/policy/trusted.json' },
    catalog: false,
    tree: {
      ...FOUR_ROOTS,
      'policy/trusted.json': '{ "{cwd}": "TRUST_FOLDER" }\n',
      [`${H}/.gemini/trustedFolders.json`]: '{ "{cwd}": "DO_NOT_TRUST" }\n',
    },
  },
  {
    id: 'trust-gemini-cli-home-settings',
    rule: 'With GEMINI_CLI_HOME the settings and trust files are read there, not in HOME.',
    env: { GEMINI_CLI_HOME: '{root}/gh' },
    catalog: false,
    tree: {
      ...FOUR_ROOTS,
      [`${H}/.gemini/trustedFolders.json`]: '{ "{cwd}": "DO_NOT_TRUST" }\n',
      'gh/.gemini/trustedFolders.json': '{ "{cwd}": "TRUST_FOLDER" }\n',
      'gh/.gemini/skills/gh-docx/SKILL.md': quoted('gh-docx', DOCX),
    },
  },

  // ---- .env files (docs/agents.md) ----
  {
    id: 'dotenv-trusted-moves-home',
    rule: 'In a trusted workspace C/.gemini/.env is loaded before the roots are found: its GEMINI_CLI_HOME moves the user roots.',
    catalog: false,
    tree: {
      ...FOUR_ROOTS,
      [`${H}/.gemini/settings.json`]: TRUST_OFF,
      [`${P}/.gemini/.env`]: 'GEMINI_CLI_HOME={root}/gh\n',
      'gh/.gemini/skills/gh-docx/SKILL.md': quoted('gh-docx', DOCX),
    },
  },
  {
    id: 'dotenv-first-file-wins',
    rule: 'Only the first .env found is loaded: C/.gemini/.env before C/.env.',
    env: TRUST,
    catalog: false,
    tree: {
      [`${P}/.gemini/.env`]: 'GEMINI_CLI_HOME={root}/gh-first\n',
      [`${P}/.env`]: 'GEMINI_CLI_HOME={root}/gh-second\n',
      'gh-first/.gemini/skills/first/SKILL.md': quoted('first', DOCX),
      'gh-second/.gemini/skills/second/SKILL.md': quoted('second', SHEETS),
    },
  },
  {
    id: 'dotenv-upward',
    rule: 'Without a .env in the workspace, the search goes upward: a .env in the parent directory is loaded.',
    env: TRUST,
    catalog: false,
    tree: {
      [`${H}/.env`]: 'GEMINI_CLI_HOME={root}/gh\n',
      'gh/.agents/skills/gh-sheets/SKILL.md': quoted('gh-sheets', SHEETS),
      [`${H}/.agents/skills/home-sheets/SKILL.md`]: quoted('home-sheets', SHEETS),
    },
  },
  {
    id: 'dotenv-untrusted-not-loaded',
    rule: 'In an untrusted workspace a .env gives only API keys: its GEMINI_CLI_HOME is not used.',
    catalog: false,
    tree: {
      ...FOUR_ROOTS,
      [`${P}/.env`]: 'GEMINI_CLI_HOME={root}/gh\n',
      'gh/.gemini/skills/gh-docx/SKILL.md': quoted('gh-docx', DOCX),
    },
  },
  {
    id: 'dotenv-trust-workspace-false',
    rule: 'A GEMINI_CLI_TRUST_WORKSPACE=false loaded from the .env of a trusted workspace counts for the project roots.',
    catalog: false,
    tree: {
      ...FOUR_ROOTS,
      [`${H}/.gemini/settings.json`]: TRUST_OFF,
      [`${P}/.gemini/.env`]: 'GEMINI_CLI_TRUST_WORKSPACE=false\n',
    },
  },
  {
    id: 'dotenv-process-variable-wins',
    rule: 'A variable already set in the environment is not replaced by the .env.',
    env: { GEMINI_CLI_HOME: '{root}/gh-env', ...TRUST },
    catalog: false,
    tree: {
      [`${P}/.gemini/.env`]: 'GEMINI_CLI_HOME={root}/gh-file\n',
      'gh-env/.gemini/skills/from-env/SKILL.md': quoted('from-env', DOCX),
      'gh-file/.gemini/skills/from-file/SKILL.md': quoted('from-file', SHEETS),
    },
  },

  // ---- Layout (docs/agents.md "Gemini CLI") ----
  {
    id: 'layout-descending-order',
    racyOrder: 'Gemini CLI takes the files of one root in the order its glob walk yields them, which is not fixed',
    rule: 'Inside a root, <root>/SKILL.md comes first, then folders in descending name order; that is the catalog order.',
    env: TRUST,
    tree: {
      [`${P}/.gemini/skills/SKILL.md`]: quoted('root-skill', LINT),
      [`${P}/.gemini/skills/alpha/SKILL.md`]: quoted('alpha', DOCX),
      [`${P}/.gemini/skills/Beta/SKILL.md`]: quoted('beta', SHEETS),
      [`${P}/.gemini/skills/gamma/SKILL.md`]: quoted('gamma', DEPLOY),
      [`${P}/.gemini/skills/delta-2/SKILL.md`]: quoted('delta-2', REVIEW),
      [`${P}/.gemini/skills/delta-10/SKILL.md`]: quoted('delta-10', PDF),
    },
  },
  {
    id: 'layout-descending-order-decides-duplicates',
    racy: 'Which of two paths of one name in one root wins follows the order of the glob walk, which is not fixed',
    rule: 'Inside one root the later folder in descending order (the alphabetically first) wins a duplicate name.',
    env: TRUST,
    tree: {
      [`${P}/.agents/skills/pdf-a/SKILL.md`]: quoted('pdf', 'PDF tools: folder pdf-a'),
      [`${P}/.agents/skills/pdf-b/SKILL.md`]: quoted('pdf', 'PDF tools: folder pdf-b'),
      [`${P}/.agents/skills/pdf-c/SKILL.md`]: quoted('pdf', 'PDF tools: folder pdf-c'),
      [`${P}/.agents/skills/sheets/SKILL.md`]: quoted('sheets', SHEETS),
    },
  },
  {
    id: 'layout-one-level',
    rule: 'Only <root>/SKILL.md and <root>/<entry>/SKILL.md are read; deeper files are not.',
    env: TRUST,
    catalog: false,
    tree: {
      [`${P}/.gemini/skills/docx/SKILL.md`]: quoted('docx', DOCX),
      [`${P}/.gemini/skills/office/pdf/SKILL.md`]: quoted('pdf', PDF),
      [`${P}/.gemini/skills/office/suite/sheets/SKILL.md`]: quoted('sheets', SHEETS),
    },
  },
  {
    id: 'layout-hidden-and-node-modules',
    rule: 'Entries starting with a dot and node_modules are skipped.',
    env: TRUST,
    catalog: false,
    tree: {
      [`${P}/.gemini/skills/docx/SKILL.md`]: quoted('docx', DOCX),
      [`${P}/.gemini/skills/.hidden/SKILL.md`]: quoted('hidden', SHEETS),
      [`${P}/.gemini/skills/.git/SKILL.md`]: quoted('git-dir', REVIEW),
      [`${P}/.gemini/skills/node_modules/SKILL.md`]: quoted('node-modules', LINT),
      [`${H}/.agents/skills/.cache/SKILL.md`]: quoted('cache', DEPLOY),
    },
  },
  {
    id: 'layout-file-name-exact',
    rule: 'The file must be named SKILL.md exactly; a directory named SKILL.md is not a skill.',
    env: TRUST,
    catalog: false,
    tree: {
      [`${P}/.gemini/skills/lower/skill.md`]: quoted('lower', DOCX),
      [`${P}/.gemini/skills/mixed/Skill.md`]: quoted('mixed', SHEETS),
      [`${P}/.gemini/skills/dir/SKILL.md/SKILL.md`]: quoted('dir', REVIEW),
      [`${P}/.gemini/skills/ok/SKILL.md`]: quoted('ok', LINT),
    },
  },
  {
    id: 'links-folder-outside',
    racyOrder: 'Gemini CLI takes the files of one root in the order its glob walk yields them, which is not fixed',
    rule: 'A link to a skill folder outside the root is followed, and the skill is reported at the link path.',
    env: TRUST,
    tree: {
      'shared/deploy/SKILL.md': quoted('deploy', DEPLOY),
      'shared/review/SKILL.md': quoted('review', REVIEW),
      [`${P}/.gemini/skills/deploy`]: { link: '../../../../shared/deploy' },
      [`${H}/.agents/skills/review`]: { link: '{root}/shared/review' },
    },
  },
  {
    id: 'links-two-paths-one-folder',
    racy: 'Which of two paths of one name in one root wins follows the order of the glob walk, which is not fixed',
    rule: 'Every path to a folder is its own skill: two links to one folder load it twice, the later path wins with a conflict warning.',
    env: TRUST,
    catalog: false,
    tree: {
      'shared/deploy/SKILL.md': quoted('deploy', DEPLOY),
      [`${P}/.gemini/skills/deploy-a`]: { link: '{root}/shared/deploy' },
      [`${P}/.gemini/skills/deploy-b`]: { link: '{root}/shared/deploy' },
    },
  },
  {
    id: 'links-to-dot',
    racy: 'Which of two paths of one name in one root wins follows the order of the glob walk, which is not fixed',
    rule: 'A link to . inside a root makes <root>/<link>/SKILL.md a second path to <root>/SKILL.md.',
    env: TRUST,
    catalog: false,
    tree: {
      [`${P}/.agents/skills/SKILL.md`]: quoted('root-skill', LINT),
      [`${P}/.agents/skills/self`]: { link: '.' },
      [`${P}/.agents/skills/docx/SKILL.md`]: quoted('docx', DOCX),
    },
  },
  {
    id: 'links-user-root-is-link',
    rule: 'A root that is itself a link to a directory is read through the link.',
    catalog: false,
    tree: {
      'dotfiles/skills/sheets/SKILL.md': quoted('sheets', SHEETS),
      [`${H}/.gemini/skills`]: { link: '../../dotfiles/skills' },
    },
  },
  {
    id: 'links-file-and-dangling',
    // A SKILL.md linked to a file outside its skill: skillsd's default `contain` mode refuses it on purpose.
    skillsdConfig: { symlinks: 'follow' },
    rule: 'A SKILL.md that is a link to a file is read; a dangling link is ignored.',
    env: TRUST,
    catalog: false,
    tree: {
      'shared/docx.md': quoted('docx', DOCX),
      [`${P}/.gemini/skills/docx/SKILL.md`]: { link: '{root}/shared/docx.md' },
      [`${P}/.gemini/skills/gone/SKILL.md`]: { link: '{root}/shared/missing.md' },
      [`${P}/.gemini/skills/gone-dir`]: { link: '{root}/shared/missing-dir' },
    },
  },

  // ---- Frontmatter, name, description (docs/agents.md "Gemini CLI") ----
  {
    id: 'frontmatter-must-open-file',
    rule: 'The block must open the file: a BOM, a blank first line or a missing closing fence means no skill.',
    env: TRUST,
    catalog: false,
    tree: {
      [`${P}/.gemini/skills/bom/SKILL.md`]: b64(`\ufeff${quoted('bom', DOCX)}`),
      [`${P}/.gemini/skills/blank/SKILL.md`]: `\n${quoted('blank', SHEETS)}`,
      [`${P}/.gemini/skills/open/SKILL.md`]: `---\nname: open\ndescription: ${REVIEW}\n# Body\n`,
      [`${P}/.gemini/skills/spaces/SKILL.md`]: `---  \nname: spaces\ndescription: ${LINT}\n---\n# Body\n`,
      [`${P}/.gemini/skills/ok/SKILL.md`]: quoted('ok', DEPLOY),
    },
  },
  {
    id: 'frontmatter-crlf',
    racyOrder: 'Gemini CLI takes the files of one root in the order its glob walk yields them, which is not fixed',
    rule: 'CRLF line ends are accepted, and a description ending the block keeps no carriage return.',
    env: TRUST,
    tree: {
      [`${P}/.gemini/skills/crlf/SKILL.md`]: `---\r\nname: crlf\r\ndescription: ${DOCX}\r\n---\r\n# Body\r\n`,
      [`${P}/.gemini/skills/crlf-yaml/SKILL.md`]: `---\r\nname: crlf-yaml\r\ndescription: "${SHEETS}"\r\n---\r\n`,
      [`${P}/.gemini/skills/crlf-folded/SKILL.md`]: `---\r\nname: crlf-folded\r\ndescription: >\r\n  ${REVIEW}\r\n  today\r\n---\r\n`,
    },
  },
  {
    id: 'frontmatter-unquoted-colon-fallback',
    racyOrder: 'Gemini CLI takes the files of one root in the order its glob walk yields them, which is not fixed',
    rule: 'An unquoted ": " fails the YAML; the line fallback takes the trimmed text after description: and its indented continuation lines.',
    env: TRUST,
    tree: {
      [`${P}/.gemini/skills/pdf/SKILL.md`]: skill('pdf', PDF),
      [`${P}/.gemini/skills/deploy/SKILL.md`]: skillFile([
        'name: deploy',
        `description: ${DEPLOY}   `,
        '  then: verify the health checks',
        '',
        '\tand notify the channel',
        'owner: platform',
      ]),
      [`${P}/.gemini/skills/docx/SKILL.md`]: skillFile([`description:    ${DOCX}`, 'name:   docx  ']),
    },
  },
  {
    id: 'frontmatter-fallback-consumes-lines',
    rule: 'The line fallback does not look again at lines it consumed: an indented name: after the description is part of it.',
    env: TRUST,
    catalog: false,
    tree: {
      [`${P}/.gemini/skills/first/SKILL.md`]: skillFile([
        'name: first-name',
        `description: ${PDF}`,
        '  name: second-name',
      ]),
      [`${P}/.gemini/skills/last/SKILL.md`]: skillFile([
        'name: early: name',
        `description: ${DOCX}`,
        'name: late-name',
      ]),
    },
  },
  {
    id: 'frontmatter-non-string-fields',
    rule: 'A name or description that YAML does not read as a string (number, boolean, list) sends the file to the line fallback.',
    env: TRUST,
    catalog: false,
    tree: {
      [`${P}/.gemini/skills/number/SKILL.md`]: skillFile(['name: 123', `description: "${SHEETS}"`]),
      [`${P}/.gemini/skills/boolean/SKILL.md`]: skillFile(['name: boolean', 'description: true']),
      [`${P}/.gemini/skills/list/SKILL.md`]: skillFile(['name: list', 'description:', '  - one', '  - two']),
      [`${P}/.gemini/skills/map/SKILL.md`]: skillFile(['name: map', 'description:', '  short: Docs', '  long: More']),
    },
  },
  {
    id: 'frontmatter-yaml-dates',
    rule: 'YAML dates are not strings: description: 2024-01-01 # release keeps the whole line through the fallback.',
    env: TRUST,
    catalog: false,
    tree: {
      [`${P}/.gemini/skills/release/SKILL.md`]: skillFile(['name: release', 'description: 2024-01-01 # release']),
      [`${P}/.gemini/skills/stamp/SKILL.md`]: skillFile(['name: 2025-06-30', `description: "${LINT}"`]),
      [`${P}/.gemini/skills/comment/SKILL.md`]: skillFile(['name: comment', 'description: Plain text # a comment']),
    },
  },
  {
    id: 'frontmatter-missing-fields',
    rule: 'Without both name: and description: lines the file is not a skill; empty values are accepted through the fallback.',
    env: TRUST,
    catalog: false,
    tree: {
      [`${P}/.gemini/skills/no-description/SKILL.md`]: skillFile(['name: no-description']),
      [`${P}/.gemini/skills/no-name/SKILL.md`]: skillFile([`description: ${DOCX}`]),
      [`${P}/.gemini/skills/empty-description/SKILL.md`]: skillFile(['name: empty-description', 'description:']),
      [`${P}/.gemini/skills/empty-both/SKILL.md`]: skillFile(['name: ""', 'description: ""']),
      [`${P}/.gemini/skills/empty-block/SKILL.md`]: '---\n---\n# Body\n',
    },
  },
  {
    id: 'frontmatter-block-scalars',
    racyOrder: 'Gemini CLI takes the files of one root in the order its glob walk yields them, which is not fixed',
    rule: 'YAML block scalars keep their line breaks in the description; the catalog collapses three or more newlines to two.',
    env: TRUST,
    tree: {
      [`${P}/.gemini/skills/literal/SKILL.md`]: skillFile([
        'name: literal',
        'description: |',
        '  First line: setup.',
        '',
        '',
        '',
        '  After three blank lines.',
      ]),
      [`${P}/.gemini/skills/folded/SKILL.md`]: skillFile([
        'name: folded',
        'description: >-',
        '  Folded text',
        '  joined by spaces.',
      ]),
    },
  },
  {
    id: 'names-unsafe-characters',
    racyOrder: 'Gemini CLI takes the files of one root in the order its glob walk yields them, which is not fixed',
    rule: 'Each of : \\ / < > * ? " | in a name becomes -; spaces, dots and unicode stay; there is no folder rule.',
    env: TRUST,
    tree: {
      [`${P}/.gemini/skills/one/SKILL.md`]: skillFile(["name: 'ns:tool/v2<beta>*?|\\x\"q'", `description: "${DOCX}"`]),
      [`${P}/.gemini/skills/two/SKILL.md`]: skillFile(['name: Spaced Name.v2 ✓', `description: "${SHEETS}"`]),
      [`${P}/.gemini/skills/three/SKILL.md`]: skillFile([
        `name: ${'long-'.repeat(30)}name`,
        `description: "${REVIEW}"`,
        'license: MIT',
        'metadata:',
        '  owner: docs',
      ]),
    },
  },
  {
    id: 'descriptions-markup-unescaped',
    racyOrder: 'Gemini CLI takes the files of one root in the order its glob walk yields them, which is not fixed',
    rule: 'The catalog puts names, descriptions and paths in its XML as they are, without escaping.',
    env: TRUST,
    tree: {
      [`${P}/.gemini/skills/markup/SKILL.md`]: quoted('markup', 'Render <b>bold</b> & "quoted" text; <skill> tags too'),
      [`${P}/.gemini/skills/amp & co/SKILL.md`]: quoted('amp', 'Folder with an ampersand'),
    },
  },

  // ---- Duplicates (§4.5) ----
  {
    id: 'duplicates-later-root-wins',
    racyOrder: 'Gemini CLI takes the files of one root in the order its glob walk yields them, which is not fixed',
    rule: 'A later root replaces an earlier skill of the same name, with a conflict warning; the catalog keeps the first place.',
    env: TRUST,
    tree: {
      [`${H}/.gemini/skills/deploy/SKILL.md`]: quoted('deploy', 'Deploy (user .gemini)'),
      [`${H}/.gemini/skills/review/SKILL.md`]: quoted('review', REVIEW),
      [`${H}/.agents/skills/deploy/SKILL.md`]: quoted('deploy', 'Deploy (user .agents)'),
      [`${P}/.gemini/skills/deploy/SKILL.md`]: quoted('deploy', 'Deploy (project .gemini)'),
      [`${P}/.agents/skills/deploy/SKILL.md`]: quoted('deploy', 'Deploy (project .agents)'),
      [`${P}/.agents/skills/sheets/SKILL.md`]: quoted('sheets', SHEETS),
    },
  },
  {
    id: 'duplicates-case-differs',
    rule: 'Names that differ only in case are different skills.',
    env: TRUST,
    catalog: false,
    tree: {
      [`${H}/.gemini/skills/pdf/SKILL.md`]: quoted('pdf', PDF),
      [`${P}/.gemini/skills/pdf/SKILL.md`]: quoted('PDF', PDF),
    },
  },
  {
    id: 'duplicates-same-name-after-sanitising',
    rule: 'Names are compared after unsafe characters become -: a:b and a-b collide.',
    env: TRUST,
    catalog: false,
    tree: {
      [`${H}/.agents/skills/colon/SKILL.md`]: skillFile(['name: "ns:deploy"', `description: "${DEPLOY}"`]),
      [`${P}/.agents/skills/dash/SKILL.md`]: quoted('ns-deploy', 'Deploy, the project copy'),
    },
  },
  {
    id: 'bundled-name-replaced',
    rule: 'A file skill named like a built-in skill replaces it and takes its place at the head of the catalog.',
    env: TRUST,
    tree: {
      [`${H}/.gemini/skills/docx/SKILL.md`]: quoted('docx', DOCX),
      [`${P}/.gemini/skills/creator/SKILL.md`]: quoted('skill-creator', 'Our own guide for writing skills'),
    },
  },

  // ---- Settings: skills.enabled, skills.disabled (docs/agents.md) ----
  {
    id: 'settings-skills-disabled',
    racyOrder: 'Gemini CLI takes the files of one root in the order its glob walk yields them, which is not fixed',
    rule: 'skills.disabled in the user settings keeps those names (case-insensitive) from being loaded and from the catalog.',
    env: TRUST,
    tree: {
      [`${H}/.gemini/settings.json`]: '{ "skills": { "disabled": ["PDF", "review"] } }\n',
      [`${H}/.gemini/skills/pdf/SKILL.md`]: quoted('pdf', PDF),
      [`${P}/.gemini/skills/review/SKILL.md`]: quoted('review', REVIEW),
      [`${P}/.gemini/skills/docx/SKILL.md`]: quoted('docx', DOCX),
    },
  },
  {
    id: 'settings-skills-disabled-workspace',
    rule: 'skills.disabled in the workspace settings of a trusted folder counts too.',
    env: TRUST,
    catalog: false,
    tree: {
      [`${P}/.gemini/settings.json`]: '{ "skills": { "disabled": ["docx"] } }\n',
      [`${H}/.gemini/skills/docx/SKILL.md`]: quoted('docx', DOCX),
      [`${H}/.gemini/skills/sheets/SKILL.md`]: quoted('sheets', SHEETS),
    },
  },
  {
    id: 'settings-skills-disabled-untrusted-workspace',
    rule: 'The workspace settings of an untrusted folder are not applied: its skills.disabled does not count.',
    catalog: false,
    tree: {
      [`${P}/.gemini/settings.json`]: '{ "skills": { "disabled": ["docx"] } }\n',
      [`${H}/.gemini/skills/docx/SKILL.md`]: quoted('docx', DOCX),
    },
  },
  {
    id: 'settings-skills-enabled-false',
    rule: 'skills.enabled false in the settings turns skills off: nothing is loaded.',
    env: TRUST,
    catalog: false,
    tree: {
      [`${H}/.gemini/settings.json`]: '{ "skills": { "enabled": false } }\n',
      [`${H}/.gemini/skills/docx/SKILL.md`]: quoted('docx', DOCX),
      [`${P}/.gemini/skills/sheets/SKILL.md`]: quoted('sheets', SHEETS),
    },
  },

  // ---- Catalog (docs/agents.md "Gemini CLI") ----
  {
    id: 'catalog-empty',
    rule: 'With no file skill the catalog holds nothing but the built-in skills, which views leave out: "".',
    env: TRUST,
    tree: { [`${P}/.gemini/skills/notes.txt`]: 'not a skill\n' },
  },
  {
    id: 'catalog-model-gemini-3',
    rule: 'With a Gemini 3 model the catalog opens with the current sentence.',
    env: TRUST,
    catalog: { model: 'gemini-3-flash-preview' },
    tree: { ...FOUR_ROOTS },
  },
  {
    id: 'catalog-model-gemini-2-5',
    rule: 'With an older model (Gemini 2.5) the catalog opens with the older activate_skill sentence.',
    env: TRUST,
    catalog: { model: 'gemini-2.5-flash' },
    tree: { ...FOUR_ROOTS },
  },
  {
    id: 'catalog-model-custom',
    rule: 'A custom model name gets the current sentence, like Gemini 3.',
    env: TRUST,
    catalog: { model: 'acme-coder-1' },
    tree: { [`${P}/.agents/skills/review/SKILL.md`]: quoted('review', REVIEW) },
  },
];
