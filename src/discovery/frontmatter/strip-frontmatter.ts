// The body of a SKILL.md without its frontmatter block: what an invocation hands over and what `skillsd cat` prints.
// A module of its own, with no imports, so that the command line can use it without loading the rest of discovery.

const FRONTMATTER_OPEN = '---\n';
const FRONTMATTER_CLOSE = '\n---\n';

/**
 * Only a text starting with `---\n` has frontmatter here, removed through the first `\n---\n` after that opening
 * line: a CRLF file and an empty `---\n---\n` block are left as they are (§7).
 */
export function stripFrontmatter(content: string): string {
  if (!content.startsWith(FRONTMATTER_OPEN)) return content;
  const close = content.indexOf(FRONTMATTER_CLOSE, FRONTMATTER_OPEN.length);
  return close === -1 ? content : content.slice(close + FRONTMATTER_CLOSE.length);
}
