// OpenCode 1.18.33: the rules of docs/agents.md "OpenCode", one small tree each.
// Default layout: HOME = <root>/home, workspace = <root>/home/proj. Without a repository OpenCode's walk goes up to
// `/`, so most trees make the workspace a repository to keep the walk inside the scenario root.

import type { Scenario, TreeEntry } from '../lib/types.js';

const BODY = '# Steps\n\n1. Read the request.\n2. Follow the checklist below.\n';

/** A SKILL.md with the given frontmatter lines (as written) and a short body. */
function md(front: string, body = BODY): string {
  return `---\n${front}\n---\n${body}`;
}

/** A well-formed skill; the description is double-quoted so `: ` inside it stays plain YAML. */
function skill(name: string, description: string): string {
  return md(`name: ${name}\ndescription: ${JSON.stringify(description)}`);
}

const PDF = skill('pdf-tools', 'PDF tools: extract text, merge and split documents');
const DEPLOY = skill('deploy', 'Deploy: ship the current branch to staging, then production');
const REVIEW = skill('code-review', 'Code review: check a diff for bugs, style and missing tests');
const SQL = skill('sql-helper', 'SQL: write and explain queries against the reporting database');
const DOCS = skill('docs-writer', 'Docs: write user-facing documentation in the house style');
const RELEASE = skill('release-notes', 'Release notes: summarise merged pull requests since the last tag');

function base64(bytes: number[] | Buffer): { base64: string } {
  return { base64: Buffer.from(bytes).toString('base64') };
}

export const scenarios: Scenario[] = [
  // Roots and their environment variables.
  {
    id: 'project-opencode-skill-and-skills',
    rule: 'A project `.opencode` directory contributes both `skill/` and `skills/` roots.',
    git: ['home/proj'],
    tree: {
      'home/proj/.opencode/skills/pdf-tools/SKILL.md': PDF,
      'home/proj/.opencode/skill/deploy/SKILL.md': DEPLOY,
      'home/proj/.opencode/skills/code-review/SKILL.md': REVIEW,
    },
  },
  {
    id: 'user-roots-all-kinds',
    rule: 'User roots: ~/.claude/skills, ~/.agents/skills, ~/.config/opencode/skill(s) and ~/.opencode/skill(s).',
    git: ['home/proj'],
    tree: {
      'home/.claude/skills/pdf-tools/SKILL.md': PDF,
      'home/.agents/skills/deploy/SKILL.md': DEPLOY,
      'home/.config/opencode/skills/code-review/SKILL.md': REVIEW,
      'home/.config/opencode/skill/sql-helper/SKILL.md': SQL,
      'home/.opencode/skills/docs-writer/SKILL.md': DOCS,
      'home/.opencode/skill/release-notes/SKILL.md': RELEASE,
    },
    catalog: false,
  },
  {
    id: 'xdg-config-home-replaces-dot-config',
    rule: 'With XDG_CONFIG_HOME set, the config root is $XDG_CONFIG_HOME/opencode and ~/.config/opencode is not read.',
    git: ['home/proj'],
    env: { XDG_CONFIG_HOME: '{root}/xdg' },
    tree: {
      'xdg/opencode/skills/pdf-tools/SKILL.md': PDF,
      'home/.config/opencode/skills/deploy/SKILL.md': DEPLOY,
    },
    catalog: false,
  },
  {
    id: 'opencode-config-dir-extra-root',
    rule: 'OPENCODE_CONFIG_DIR names one more config directory whose skill/ and skills/ are read.',
    git: ['home/proj'],
    env: { OPENCODE_CONFIG_DIR: '{root}/team-config' },
    tree: {
      'team-config/skills/pdf-tools/SKILL.md': PDF,
      'team-config/skill/deploy/SKILL.md': DEPLOY,
      'home/.config/opencode/skills/code-review/SKILL.md': REVIEW,
    },
    catalog: false,
  },
  {
    id: 'walk-stops-at-git-root',
    rule: 'Project roots are read from the workspace up to the repository root and no further.',
    git: ['home/work/repo'],
    cwd: 'home/work/repo/pkg/app',
    tree: {
      'home/work/repo/pkg/app/.opencode/skills/pdf-tools/SKILL.md': PDF,
      'home/work/repo/pkg/.agents/skills/deploy/SKILL.md': DEPLOY,
      'home/work/repo/.claude/skills/code-review/SKILL.md': REVIEW,
      'home/work/repo/.opencode/skill/sql-helper/SKILL.md': SQL,
      'home/work/.agents/skills/docs-writer/SKILL.md': DOCS,
      'home/work/.opencode/skills/release-notes/SKILL.md': RELEASE,
    },
    catalog: false,
  },
  {
    id: 'no-repository-walks-to-filesystem-root',
    rule: 'Without a repository the walk goes up to `/`, so roots above HOME are read.',
    home: 'users/me',
    cwd: 'users/me/code/app',
    tree: {
      'users/me/code/app/.agents/skills/pdf-tools/SKILL.md': PDF,
      'users/me/code/.opencode/skills/deploy/SKILL.md': DEPLOY,
      'users/.claude/skills/code-review/SKILL.md': REVIEW,
      '.agents/skills/sql-helper/SKILL.md': SQL,
    },
    catalog: false,
  },
  {
    id: 'empty-git-directory-is-not-a-repository',
    rule: 'An empty `.git` directory is not a repository: the walk goes past it up to `/`.',
    cwd: 'ws/repo/src',
    tree: {
      'ws/repo/.git': { dir: true },
      'ws/repo/src/.agents/skills/pdf-tools/SKILL.md': PDF,
      'ws/.claude/skills/deploy/SKILL.md': DEPLOY,
      '.opencode/skills/code-review/SKILL.md': REVIEW,
    },
    catalog: false,
  },
  {
    id: 'broken-gitdir-file-walks-to-root',
    rule: 'A `.git` file whose `gitdir:` points nowhere is not a repository: the walk goes up to `/`.',
    cwd: 'ws/repo',
    tree: {
      'ws/repo/.git': 'gitdir: ../missing/.git/worktrees/repo\n',
      'ws/repo/.agents/skills/pdf-tools/SKILL.md': PDF,
      'ws/.agents/skills/deploy/SKILL.md': DEPLOY,
    },
    catalog: false,
  },
  {
    id: 'linked-worktree-is-its-own-root',
    rule: 'A linked worktree is its own worktree: the walk stops there and the main checkout is not read.',
    git: ['home/main'],
    cwd: 'home/wt/sub',
    // `git worktree add` wants a new or empty folder: the workspace folder made before setup is removed first, and
    // the worktree's own files are copied in afterwards.
    setup: [
      'rm -rf home/wt',
      'git -C home/main commit -q --allow-empty -m init',
      'git -C home/main worktree add -q ../wt',
      'mkdir -p home/wt/sub/.agents/skills home/wt/.opencode/skills',
      'cp -R staging/code-review home/wt/sub/.agents/skills/ && cp -R staging/sql-helper home/wt/.opencode/skills/',
    ],
    tree: {
      'home/main/.agents/skills/pdf-tools/SKILL.md': PDF,
      'home/main/.opencode/skills/deploy/SKILL.md': DEPLOY,
      'staging/code-review/SKILL.md': REVIEW,
      'staging/sql-helper/SKILL.md': SQL,
      'home/.opencode/skills/docs-writer/SKILL.md': DOCS,
    },
    catalog: false,
  },
  {
    id: 'home-reached-twice-is-one-skill',
    rule: 'Without a repository HOME lies on the walk: ~/.claude/skills is both a user and a project root, one entry.',
    tree: {
      'home/.claude/skills/pdf-tools/SKILL.md': PDF,
      'home/.agents/skills/deploy/SKILL.md': DEPLOY,
      'home/proj/.agents/skills/code-review/SKILL.md': REVIEW,
    },
    catalog: false,
  },
  // The disable flags.
  ...flagScenarios(),
  {
    id: 'disable-project-config-any-case',
    rule: 'OPENCODE_DISABLE_PROJECT_CONFIG=TRUE skips every project `.opencode`; ~/.opencode, the config root and .claude stay.',
    git: ['home/proj'],
    env: { OPENCODE_DISABLE_PROJECT_CONFIG: 'TRUE' },
    tree: {
      'home/proj/.opencode/skills/pdf-tools/SKILL.md': PDF,
      'home/proj/.claude/skills/deploy/SKILL.md': DEPLOY,
      'home/.opencode/skills/code-review/SKILL.md': REVIEW,
      'home/.config/opencode/skills/sql-helper/SKILL.md': SQL,
    },
    catalog: false,
  },
  {
    id: 'disable-project-config-yes-is-not-on',
    rule: 'OPENCODE_DISABLE_PROJECT_CONFIG accepts only true and 1: `yes` leaves project `.opencode` roots in.',
    git: ['home/proj'],
    env: { OPENCODE_DISABLE_PROJECT_CONFIG: 'yes' },
    tree: {
      'home/proj/.opencode/skills/pdf-tools/SKILL.md': PDF,
      'home/.opencode/skills/code-review/SKILL.md': REVIEW,
    },
    catalog: false,
  },
  {
    id: 'opencode-file-in-workspace-stops-opencode',
    rule: 'A regular file named `.opencode` in the workspace stops OpenCode: nothing is loaded.',
    git: ['home/proj'],
    tree: {
      'home/proj/.opencode': '{ "note": "not a directory" }\n',
      'home/proj/.agents/skills/pdf-tools/SKILL.md': PDF,
      'home/.agents/skills/deploy/SKILL.md': DEPLOY,
    },
    catalog: false,
  },
  {
    id: 'claude-file-instead-of-directory',
    rule: 'A file at a project `.claude` is no root; the other roots still load.',
    git: ['home/proj'],
    tree: {
      'home/proj/.claude': 'not a directory\n',
      'home/proj/.agents/skills/pdf-tools/SKILL.md': PDF,
      'home/proj/.opencode/skills/deploy/SKILL.md': DEPLOY,
    },
    catalog: false,
  },
  // Layout: depth, hidden entries, links, SKILL.md directories.
  {
    id: 'any-depth-and-root-level-skill-md',
    rule: 'Each root is searched with `**/SKILL.md`: any depth, and a SKILL.md directly in the root counts.',
    git: ['home/proj'],
    tree: {
      'home/proj/.agents/skills/SKILL.md': skill('root-level', 'Root level: a SKILL.md right in the skills folder'),
      'home/proj/.opencode/skills/group/team/tools/pdf/v2/SKILL.md': PDF,
      'home/.claude/skills/a/b/c/d/e/f/SKILL.md': DEPLOY,
    },
    catalog: false,
  },
  {
    id: 'hidden-directories-walked-in-external-roots',
    rule: 'Below .claude and .agents roots hidden directories are searched (dot: true).',
    git: ['home/proj'],
    tree: {
      'home/.agents/skills/.hidden/pdf-tools/SKILL.md': PDF,
      'home/proj/.claude/skills/.drafts/deploy/SKILL.md': DEPLOY,
      'home/proj/.agents/skills/code-review/.v2/SKILL.md': REVIEW,
    },
    catalog: false,
  },
  {
    id: 'hidden-directories-skipped-in-config-roots',
    rule: 'Below skill/ and skills/ of config directories hidden directories are not searched.',
    git: ['home/proj'],
    tree: {
      'home/proj/.opencode/skills/.hidden/pdf-tools/SKILL.md': PDF,
      'home/.config/opencode/skills/.drafts/deploy/SKILL.md': DEPLOY,
      'home/.opencode/skill/tools/.v2/SKILL.md': REVIEW,
      'home/proj/.opencode/skills/sql-helper/SKILL.md': SQL,
    },
    catalog: false,
  },
  {
    id: 'skill-md-directory-walked-into',
    rule: 'A directory named SKILL.md is walked into like any folder; the SKILL.md files below it load.',
    git: ['home/proj'],
    tree: {
      'home/proj/.agents/skills/odd/SKILL.md/inner/SKILL.md': PDF,
      'home/proj/.opencode/skills/SKILL.md/SKILL.md': DEPLOY,
    },
    catalog: false,
  },
  {
    id: 'links-followed-paths-lexical',
    // A SKILL.md linked to a file outside its skill: skillsd's default `contain` mode refuses it on purpose.
    skillsdConfig: { symlinks: 'follow' },
    rule: 'Directory links and SKILL.md links are followed; paths stay as found under the root; dangling links are ignored.',
    git: ['home/proj'],
    tree: {
      'shared/pdf-tools/SKILL.md': PDF,
      'shared/deploy.md': DEPLOY,
      'home/proj/.agents/skills/pdf-link': { link: '{root}/shared/pdf-tools' },
      'home/proj/.opencode/skills/deploy/SKILL.md': { link: '../../../../../shared/deploy.md' },
      'home/proj/.opencode/skills/gone': { link: '{root}/nowhere' },
      'home/proj/.opencode/skills/code-review/SKILL.md': REVIEW,
    },
    catalog: false,
  },
  {
    id: 'linked-skills-root',
    rule: 'A skills root that is itself a link to a folder is read through the link.',
    git: ['home/proj'],
    tree: {
      'team/skills/pdf-tools/SKILL.md': PDF,
      'team/skills/deploy/SKILL.md': DEPLOY,
      'home/proj/.claude/skills': { link: '{root}/team/skills' },
    },
    catalog: false,
  },
  {
    id: 'workspace-reached-through-link',
    rule: 'Started in a workspace reached through a link, OpenCode reports the real paths, not those under the link.',
    git: ['real/proj'],
    cwd: 'home/proj',
    tree: {
      'real/proj/.agents/skills/pdf-tools/SKILL.md': PDF,
      'real/proj/.opencode/skills/deploy/SKILL.md': DEPLOY,
      'home/proj': { link: '{root}/real/proj' },
    },
  },
  // Frontmatter through gray-matter + js-yaml 3.
  {
    id: 'bom-before-fence-stripped',
    rule: 'A UTF-8 BOM before the opening fence is stripped and the file loads.',
    git: ['home/proj'],
    tree: {
      'home/proj/.agents/skills/pdf-tools/SKILL.md': base64([
        0xef,
        0xbb,
        0xbf,
        ...Buffer.from(skill('pdf-tools', 'PDF tools: extract text, merge and split documents')),
      ]),
      'home/proj/.agents/skills/deploy/SKILL.md': DEPLOY,
    },
    catalog: false,
  },
  {
    id: 'no-closing-fence-rest-is-yaml',
    rule: 'Without a closing `---` the rest of the file is the YAML block; Markdown headings read as YAML comments.',
    git: ['home/proj'],
    tree: {
      'home/proj/.agents/skills/pdf-tools/SKILL.md':
        '---\nname: pdf-tools\ndescription: "PDF tools: extract text"\n\n# Heading read as a comment\n',
      'home/proj/.agents/skills/deploy/SKILL.md':
        '---\nname: deploy\ndescription: "Deploy: ship it"\n\nPlain prose breaks the YAML.\n',
      'home/proj/.agents/skills/code-review/SKILL.md': REVIEW,
    },
    catalog: false,
  },
  {
    id: 'spaces-after-fences',
    rule: 'Spaces after the opening and closing fences are accepted.',
    git: ['home/proj'],
    tree: {
      'home/proj/.agents/skills/pdf-tools/SKILL.md':
        '---  \nname: pdf-tools\ndescription: "PDF tools: merge"\n--- \nBody\n',
      'home/proj/.agents/skills/deploy/SKILL.md': '---\t\nname: deploy\ndescription: "Deploy: ship"\n---\t\nBody\n',
    },
    catalog: false,
  },
  {
    id: 'crlf-line-endings',
    rule: 'A CRLF file loads and its description keeps no carriage return.',
    git: ['home/proj'],
    tree: {
      'home/proj/.agents/skills/pdf-tools/SKILL.md':
        '---\r\nname: pdf-tools\r\ndescription: PDF tools for reports\r\n---\r\n# PDF\r\n',
      'home/proj/.agents/skills/deploy/SKILL.md':
        '---\r\nname: deploy\r\ndescription: >\r\n  Deploy the branch\r\n  to staging\r\n---\r\nBody\r\n',
    },
  },
  {
    id: 'yaml11-dates-are-not-strings',
    rule: 'YAML 1.1 dates are not strings: a date name or description drops the file.',
    git: ['home/proj'],
    tree: {
      'home/proj/.agents/skills/changelog/SKILL.md': md('name: changelog\ndescription: 2024-01-15'),
      'home/proj/.agents/skills/dated/SKILL.md': md('name: 2024-01-15\ndescription: "Dated: a release skill"'),
      'home/proj/.agents/skills/timestamp/SKILL.md': md('name: timestamp\ndescription: 2024-01-15T10:00:00Z'),
      'home/proj/.agents/skills/quoted-date/SKILL.md': md('name: quoted-date\ndescription: "2024-01-15"'),
    },
    catalog: false,
  },
  {
    id: 'yaml11-numbers-and-sexagesimals',
    rule: 'YAML 1.1 reads 0b101, 1_000 and 12:30 as numbers (file dropped) but 0o17 as a string.',
    git: ['home/proj'],
    tree: {
      'home/proj/.agents/skills/binary/SKILL.md': md('name: binary\ndescription: 0b101'),
      'home/proj/.agents/skills/grouped/SKILL.md': md('name: grouped\ndescription: 1_000'),
      'home/proj/.agents/skills/clock/SKILL.md': md('name: clock\ndescription: 12:30'),
      'home/proj/.agents/skills/octal/SKILL.md': md('name: octal\ndescription: 0o17'),
      'home/proj/.agents/skills/version/SKILL.md': md('name: version\ndescription: 1.50'),
    },
    catalog: false,
  },
  {
    id: 'yaml-booleans-and-null',
    rule: 'Non-string names and descriptions (true, 42, null, a list, a map) drop the file without a message.',
    git: ['home/proj'],
    tree: {
      'home/proj/.agents/skills/flag/SKILL.md': md('name: flag\ndescription: yes'),
      'home/proj/.agents/skills/answer/SKILL.md': md('name: 42\ndescription: "Answer: the number"'),
      'home/proj/.agents/skills/nothing/SKILL.md': md('name: nothing\ndescription: ~'),
      'home/proj/.agents/skills/listed/SKILL.md': md('name: listed\ndescription:\n  - one\n  - two'),
      'home/proj/.agents/skills/mapped/SKILL.md': md('name: mapped\ndescription:\n  short: one'),
      'home/proj/.agents/skills/plain/SKILL.md': md('name: plain\ndescription: On a plain line'),
    },
    catalog: false,
  },
  {
    id: 'duplicate-keys-reject',
    rule: 'A duplicate YAML key rejects the file (js-yaml 3), even after the repair retry.',
    git: ['home/proj'],
    tree: {
      'home/proj/.agents/skills/twice/SKILL.md': md(
        'name: twice\ndescription: "First: one"\ndescription: "Second: two"',
      ),
      'home/proj/.agents/skills/renamed/SKILL.md': md('name: renamed\nname: renamed-again\ndescription: "Renamed: x"'),
      'home/proj/.agents/skills/deploy/SKILL.md': DEPLOY,
    },
    catalog: false,
  },
  {
    id: 'only-name-required',
    rule: 'Only `name` is required: a skill without description loads and stays out of the catalog.',
    git: ['home/proj'],
    tree: {
      'home/proj/.agents/skills/quiet/SKILL.md': md('name: quiet\nlicense: MIT'),
      'home/proj/.agents/skills/deploy/SKILL.md': DEPLOY,
      'home/proj/.agents/skills/empty-description/SKILL.md': md('name: empty-description\ndescription: ""'),
    },
  },
  {
    id: 'missing-name-not-loaded',
    rule: 'A file without `name` is dropped: the folder name is not used.',
    git: ['home/proj'],
    tree: {
      'home/proj/.agents/skills/nameless/SKILL.md': md('description: "Nameless: has only a description"'),
      'home/proj/.agents/skills/blank/SKILL.md': md('name:\ndescription: "Blank: empty name"'),
      'home/proj/.agents/skills/deploy/SKILL.md': DEPLOY,
    },
    catalog: false,
  },
  {
    id: 'no-or-empty-frontmatter',
    rule: 'A file without frontmatter, with an empty block or with a list block loads nothing.',
    git: ['home/proj'],
    tree: {
      'home/proj/.agents/skills/plain/SKILL.md': '# Plain\n\nJust Markdown, no frontmatter.\n',
      'home/proj/.agents/skills/empty/SKILL.md': '---\n---\n# Empty\n',
      'home/proj/.agents/skills/listed/SKILL.md': '---\n- name: listed\n- description: a list\n---\n',
      'home/proj/.agents/skills/four-dashes/SKILL.md': '----\nname: four-dashes\ndescription: "Four: dashes"\n----\n',
      'home/proj/.agents/skills/deploy/SKILL.md': DEPLOY,
    },
    catalog: false,
  },
  {
    id: 'name-need-not-match-folder',
    rule: 'Names are not validated: any string, unrelated to the folder, with spaces or capitals, loads.',
    git: ['home/proj'],
    tree: {
      'home/proj/.agents/skills/folder-a/SKILL.md': skill(
        'Totally Different Name',
        'Different: the folder says otherwise',
      ),
      'home/proj/.agents/skills/x/SKILL.md': skill('UPPER_case.name', 'Upper: capitals and punctuation'),
      'home/proj/.agents/skills/long/SKILL.md': skill('n'.repeat(80), 'Long: an 80-character name'),
    },
  },
  {
    id: 'repair-retry-colon-values',
    rule: 'A YAML error is retried with `key: a: b` values turned into block scalars; the value is trimmed.',
    git: ['home/proj'],
    tree: {
      'home/proj/.agents/skills/pdf-tools/SKILL.md': md(
        'name: pdf-tools\ndescription: PDF tools: extract text, merge pages   ',
      ),
      'home/proj/.agents/skills/deploy/SKILL.md': md('name: deploy\ndescription  : Deploy: to staging first'),
      'home/proj/.agents/skills/code-review/SKILL.md': md(
        'name: code-review\ndescription: Review: diffs # not a comment',
      ),
    },
  },
  {
    id: 'repair-retry-key-rules',
    rule: 'The repair skips keys outside [A-Za-z_][A-Za-z0-9_]* and quoted values: such a file stays rejected.',
    git: ['home/proj'],
    tree: {
      'home/proj/.agents/skills/hyphen-key/SKILL.md': md(
        'name: hyphen-key\ndescription: "Hyphen: a key with a hyphen"\nallowed-tools: Bash: git status',
      ),
      'home/proj/.agents/skills/underscore-key/SKILL.md': md(
        'name: underscore-key\ndescription: "Underscore: fine"\nallowed_tools: Bash: git status',
      ),
      'home/proj/.agents/skills/quoted/SKILL.md': md('name: quoted\ndescription: "Quoted": then more: text'),
      'home/proj/.agents/skills/indented/SKILL.md': md(
        'name: indented\nmetadata:\n  note: a: b\ndescription: "Indented: x"',
      ),
    },
    catalog: false,
  },
  {
    id: 'repair-retry-with-bom-fails',
    rule: 'The repair needs `---` at the very start: with a BOM a `key: a: b` file stays rejected.',
    git: ['home/proj'],
    tree: {
      'home/proj/.agents/skills/bom-colon/SKILL.md': base64([
        0xef,
        0xbb,
        0xbf,
        ...Buffer.from(md('name: bom-colon\ndescription: BOM: and a colon')),
      ]),
      'home/proj/.agents/skills/deploy/SKILL.md': DEPLOY,
    },
    catalog: false,
  },
  {
    id: 'no-size-limit',
    rule: 'There is no size limit: a 1.1 MB SKILL.md loads.',
    git: ['home/proj'],
    tree: {
      'home/proj/.agents/skills/huge/SKILL.md': {
        head: md('name: huge\ndescription: "Huge: a very long reference manual"', '# Manual\n\n'),
        size: 1_100_000,
        fill: 'lorem ipsum ',
      },
      'home/proj/.agents/skills/deploy/SKILL.md': DEPLOY,
    },
    catalog: false,
  },
  {
    id: 'unknown-keys-ignored',
    rule: 'Unknown frontmatter keys are ignored.',
    git: ['home/proj'],
    tree: {
      'home/proj/.agents/skills/pdf-tools/SKILL.md': md(
        'name: pdf-tools\ndescription: "PDF tools: merge"\nlicense: Apache-2.0\nallowed-tools: [Read, Bash]\ndisable-model-invocation: true\nmetadata:\n  owner: docs-team',
      ),
    },
    catalog: false,
  },
  // Duplicates and precedence.
  {
    id: 'config-root-vs-project-claude',
    rule: 'A config-root skill and a project .claude skill of one name race: phases do not order the parses.',
    git: ['home/proj'],
    tree: {
      'home/proj/.claude/skills/deploy/SKILL.md': skill('deploy', 'Project .claude: deploy to the team cluster'),
      'home/.config/opencode/skills/deploy/SKILL.md': skill('deploy', 'Config root: deploy with the personal profile'),
    },
    catalog: false,
    racy: 'OpenCode parses every matched file at once and keeps the last parse to finish: both files were seen winning',
  },
  {
    id: 'project-agents-vs-user-agents',
    rule: 'A project .agents skill and a ~/.agents skill of one name race: phases do not order the parses.',
    git: ['home/proj'],
    tree: {
      'home/.agents/skills/deploy/SKILL.md': skill('deploy', 'User: deploy with personal defaults'),
      'home/proj/.agents/skills/deploy/SKILL.md': skill('deploy', 'Project: deploy with the team pipeline'),
    },
    catalog: false,
    racy: 'OpenCode parses every matched file at once and keeps the last parse to finish: both files were seen winning',
  },
  {
    id: 'same-phase-claude-and-agents',
    rule: 'Two same-named files of one phase (.claude and .agents of the workspace) race.',
    git: ['home/proj'],
    tree: {
      'home/proj/.claude/skills/deploy/SKILL.md': skill('deploy', 'Claude folder: deploy via make'),
      'home/proj/.agents/skills/deploy/SKILL.md': skill('deploy', 'Agents folder: deploy via the CLI'),
    },
    catalog: false,
    racy: 'OpenCode parses every matched file at once and keeps the last parse to finish: both files were seen winning',
  },
  {
    id: 'same-name-two-folders-one-root',
    rule: 'Two folders of one root declaring the same name race.',
    git: ['home/proj'],
    tree: {
      'home/proj/.opencode/skills/deploy-a/SKILL.md': skill('deploy', 'Variant A: deploy with blue-green'),
      'home/proj/.opencode/skills/deploy-b/SKILL.md': skill('deploy', 'Variant B: deploy with canaries'),
    },
    catalog: false,
    racy: 'OpenCode parses every matched file at once and keeps the last parse to finish: both files were seen winning',
  },
  {
    id: 'nearer-opencode-vs-farther-opencode',
    rule: 'Two project .opencode directories of the walk holding the same name race.',
    git: ['home/proj'],
    cwd: 'home/proj/app',
    tree: {
      'home/proj/app/.opencode/skills/deploy/SKILL.md': skill('deploy', 'App: deploy the app only'),
      'home/proj/.opencode/skills/deploy/SKILL.md': skill('deploy', 'Repo: deploy everything'),
    },
    catalog: false,
    racy: 'OpenCode parses every matched file at once and keeps the last parse to finish: both files were seen winning',
  },
  // Catalog.
  {
    id: 'catalog-localecompare-order',
    rule: 'Catalog entries are sorted with localeCompare: case and accents fold, digits before letters.',
    git: ['home/proj'],
    tree: {
      'home/proj/.agents/skills/a/SKILL.md': skill('Zeta', 'Zeta: capitalised name'),
      'home/proj/.agents/skills/b/SKILL.md': skill('alpha', 'Alpha: lower-case name'),
      'home/proj/.agents/skills/c/SKILL.md': skill('beta_one', 'Beta one: underscore'),
      'home/proj/.agents/skills/d/SKILL.md': skill('beta-two', 'Beta two: hyphen'),
      'home/proj/.agents/skills/e/SKILL.md': skill('éclair', 'Eclair: accented first letter'),
      'home/proj/.agents/skills/f/SKILL.md': skill('10-ten', 'Ten: digits first'),
      'home/proj/.agents/skills/g/SKILL.md': skill('9-nine', 'Nine: one digit'),
      'home/proj/.agents/skills/h/SKILL.md': skill('Beta', 'Beta: capital B'),
    },
  },
  {
    id: 'catalog-escapes-location-only',
    rule: 'The catalog location is the plain path HTML-escaped; names and descriptions are not escaped.',
    git: ['home/proj'],
    tree: {
      "home/proj/.agents/skills/R&D <tools> 'x'/SKILL.md": skill('r-and-d', 'R&D: use <b>bold</b> "quotes" & more'),
      'home/proj/.agents/skills/space dir/SKILL.md': skill('<angle>', 'Angle: a name with brackets'),
    },
  },
  {
    id: 'catalog-multiline-description',
    rule: 'A folded or literal block description keeps its line breaks in the catalog.',
    git: ['home/proj'],
    tree: {
      'home/proj/.agents/skills/literal/SKILL.md': md(
        'name: literal\ndescription: |\n  First line: setup.\n  Second line: run.',
      ),
      'home/proj/.agents/skills/folded/SKILL.md': md(
        'name: folded\ndescription: >\n  Folded: one\n  line.\n\n  Second paragraph.',
      ),
    },
  },
  {
    id: 'catalog-file-skill-replaces-built-in',
    rule: 'A file skill named customize-opencode replaces the built-in skill in the list and the catalog.',
    git: ['home/proj'],
    tree: {
      'home/proj/.opencode/skills/customize-opencode/SKILL.md': skill(
        'customize-opencode',
        'Team override: how we configure opencode here',
      ),
      'home/proj/.opencode/skills/deploy/SKILL.md': DEPLOY,
    },
  },
  {
    id: 'catalog-nothing-described',
    rule: 'When no skill (the built-in replaced) has a description the catalog says no skills are available.',
    git: ['home/proj'],
    tree: {
      'home/proj/.opencode/skills/customize-opencode/SKILL.md': md('name: customize-opencode'),
      'home/proj/.opencode/skills/quiet/SKILL.md': md('name: quiet'),
    },
  },
  {
    id: 'catalog-no-file-skills',
    rule: 'With no file skill the catalog holds only the built-in entry.',
    git: ['home/proj'],
    tree: { 'home/proj/README.md': '# Project\n' },
  },
  {
    id: 'catalog-window-does-not-matter',
    rule: 'OpenCode has no budget: a small context window changes nothing.',
    git: ['home/proj'],
    tree: {
      'home/proj/.agents/skills/pdf-tools/SKILL.md': PDF,
      'home/proj/.agents/skills/deploy/SKILL.md': DEPLOY,
      'home/proj/.agents/skills/long/SKILL.md': skill('long', `Long: ${'a very long description '.repeat(200)}`),
    },
    catalog: { contextWindow: 1000 },
  },
];

/** The three OPENCODE_DISABLE_* skill flags and their accepted values. */
function flagScenarios(): Scenario[] {
  const tree: Record<string, TreeEntry> = {
    'home/.claude/skills/pdf-tools/SKILL.md': PDF,
    'home/.agents/skills/deploy/SKILL.md': DEPLOY,
    'home/proj/.claude/skills/code-review/SKILL.md': REVIEW,
    'home/proj/.agents/skills/sql-helper/SKILL.md': SQL,
    'home/proj/.opencode/skills/docs-writer/SKILL.md': DOCS,
    'home/.config/opencode/skills/release-notes/SKILL.md': RELEASE,
  };
  const cases: Array<[string, string, string, string]> = [
    [
      'OPENCODE_DISABLE_EXTERNAL_SKILLS',
      'true',
      'disable-external-skills-true',
      'drops every .claude and .agents root',
    ],
    ['OPENCODE_DISABLE_EXTERNAL_SKILLS', 'yes', 'disable-external-skills-yes', 'is on for `yes`'],
    ['OPENCODE_DISABLE_EXTERNAL_SKILLS', 'off', 'disable-external-skills-off', 'is off for `off`'],
    ['OPENCODE_DISABLE_EXTERNAL_SKILLS', 'maybe', 'disable-external-skills-bad-value', 'with `maybe` stops OpenCode'],
    ['OPENCODE_DISABLE_CLAUDE_CODE', '1', 'disable-claude-code', 'drops the .claude roots and keeps .agents'],
    ['OPENCODE_DISABLE_CLAUDE_CODE_SKILLS', 'y', 'disable-claude-code-skills-y', 'is on for `y`'],
    [
      'OPENCODE_DISABLE_CLAUDE_CODE_SKILLS',
      'Y',
      'disable-claude-code-skills-upper-y',
      'with `Y` stops OpenCode (case matters)',
    ],
    ['OPENCODE_DISABLE_CLAUDE_CODE_SKILLS', 'n', 'disable-claude-code-skills-n', 'is off for `n`'],
    ['OPENCODE_DISABLE_CLAUDE_CODE_SKILLS', '2', 'disable-claude-code-skills-bad-value', 'with `2` stops OpenCode'],
  ];
  return cases.map(([variable, value, id, what]) => ({
    id,
    rule: `${variable}=${value} ${what}.`,
    git: ['home/proj'],
    env: { [variable]: value },
    tree,
    catalog: false,
  }));
}
