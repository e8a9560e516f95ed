// Client input repeated in an error message (a path, a header, a name) is capped: the message is for a person, and an
// unbounded echo lets one request make the daemon build, log and send back as much text as the client sent.

/** Characters of a header, name or URL an error message repeats; longer input is cut and ends with `…`. */
export const MAX_ECHO_CHARS = 200;
/**
 * Characters of an error message's first line, where every message that repeats a path puts it (`File not found:
 * <path>`, `Unknown skill: <name>`, `cwd does not exist: <path>`): PATH_MAX, so that no real path is ever cut.
 */
export const MAX_FIRST_LINE_CHARS = 4096;

export function capEcho(value: string, max = MAX_ECHO_CHARS): string {
  return value.length > max ? `${value.slice(0, max)}…` : value;
}

/** The message with its first line capped; the lines after it (a list of available names) are the daemon's own. */
export function capFirstLine(message: string): string {
  const end = message.indexOf('\n');
  const first = end < 0 ? message : message.slice(0, end);
  if (first.length <= MAX_FIRST_LINE_CHARS) return message;
  return capEcho(first, MAX_FIRST_LINE_CHARS) + (end < 0 ? '' : message.slice(end));
}
