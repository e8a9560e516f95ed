// Client input repeated in an error message (a path, a header, a name) is capped: the message is for a person, and an
// unbounded echo lets one request make the daemon build, log and send back as much text as the client sent.

/** Characters of client input an error message repeats; longer input is cut and ends with `…`. */
export const MAX_ECHO_CHARS = 200;

export function capEcho(value: string): string {
  return value.length > MAX_ECHO_CHARS ? `${value.slice(0, MAX_ECHO_CHARS)}…` : value;
}
