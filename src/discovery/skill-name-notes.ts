// Skill names that tools will struggle with. docs/discovery.md §1 does not validate names (only managed skills are), so
// such a skill is still loaded under its name, exactly as the reference agents load it; the daemon only says so.
// Nothing downstream breaks on these names: JSON and SSE escape them, no header carries a name, `/prompt` keeps
// every skill on its own line (see skills-prompt.ts), and HTTP refuses a NUL in a request path on its own.

/** Far beyond any real name (the Agent Skills standard allows 64), short enough to list and log. */
export const MAX_PLAIN_NAME_LENGTH = 1024;

const LINE_BREAK = /[\n\r\v\f\u0085\u2028\u2029]/;
/** C0 and C1 controls other than NUL and the line breaks above, and the bidirectional overrides and isolates. */
const CONTROL = /[\u0001-\u0009\u000e-\u001f\u007f-\u0084\u0086-\u009f\u202a-\u202e\u2066-\u2069]/;

/** The diagnostic for a name with problems, or undefined for an ordinary name. */
export function skillNameNote(name: string): string | undefined {
  const problems: string[] = [];
  if (name.length > MAX_PLAIN_NAME_LENGTH) {
    problems.push(`is ${name.length} characters long (more than ${MAX_PLAIN_NAME_LENGTH})`);
  }
  if (name.includes('\0')) problems.push('contains NUL (no skill:// URL or HTTP path can name it)');
  if (LINE_BREAK.test(name)) problems.push('contains a line break (/prompt shows it as a space)');
  if (CONTROL.test(name)) problems.push('contains control characters');
  if (name.includes('/')) problems.push('contains "/" (skill://<name>/… reads what follows as a file path)');
  if (problems.length === 0) return undefined;
  return `skill name ${problems.join(', ')}; the skill is still loaded under that name, as the reference does`;
}
