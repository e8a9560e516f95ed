// Name globs (`ignoredSkills`, `includeSkills`, docs/discovery.md §5 "Globs") with the agents' semantics. The agents match
// with their runtime's glob matcher; picomatch (with `dot` on) reads braces, `*`, `?`, `**`, extglobs and escapes the
// same way, except in three shapes, which are rewritten here into the picomatch pattern of the same meaning:
// - `[!a]` is a negated class (picomatch reads "`!` or `a`"): written `[^a]`;
// - a class ends at its first `]` and `[` inside it is a plain character, so `[[:alpha:]]` is the class
//   `[`, `:`, `a`, `l`, `p`, `h` followed by a literal `]` (picomatch reads a POSIX class): its characters are escaped;
// - a trailing `/**` needs the `/` (`a/**` does not match `a`, picomatch's does): written `/{**,}`.

const BACKSLASH = '\\';

/** The picomatch pattern matching the names the agents' glob `pattern` matches. */
export function toPicomatchPattern(pattern: string): string {
  let out = '';
  let i = 0;
  while (i < pattern.length) {
    const char = pattern[i]!;
    if (char === BACKSLASH) {
      out += pattern.slice(i, i + 2);
      i += 2;
      continue;
    }
    if (char === '[') {
      const cls = readClass(pattern, i);
      if (cls !== undefined) {
        out += cls.text;
        i = cls.end;
        continue;
      }
      // No closing bracket: a plain `[`.
      out += '\\[';
      i++;
      continue;
    }
    out += char;
    i++;
  }
  return out.endsWith('/**') && !escapedAt(out, out.length - 3) ? `${out.slice(0, -3)}/{**,}` : out;
}

/**
 * The class starting at `open` (a `[`), rewritten: `[!…]` or `[^…]` negated, a `]` first in the class taken as a
 * character, the class ending at the next `]` not escaped. Undefined when it never closes.
 */
function readClass(pattern: string, open: number): { text: string; end: number } | undefined {
  let i = open + 1;
  let negated = false;
  if (pattern[i] === '!' || pattern[i] === '^') {
    negated = true;
    i++;
  }
  let members = '';
  let first = true;
  while (i < pattern.length) {
    const char = pattern[i]!;
    if (char === ']' && !first) return { text: `[${negated ? '^' : ''}${members}]`, end: i + 1 };
    if (char === BACKSLASH && i + 1 < pattern.length) {
      members += pattern.slice(i, i + 2);
      i += 2;
    } else {
      // `[`, `:` and `]` escaped: picomatch must not see a POSIX class nor end the class early.
      members += char === '[' || char === ':' || char === ']' ? `${BACKSLASH}${char}` : char;
      i++;
    }
    first = false;
  }
  return undefined;
}

/** The character at `index` is preceded by an odd run of backslashes. */
function escapedAt(text: string, index: number): boolean {
  let count = 0;
  for (let i = index - 1; i >= 0 && text[i] === BACKSLASH; i--) count++;
  return count % 2 === 1;
}
