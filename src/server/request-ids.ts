// Request ids (`reqId` on every log line of a request). Fastify's own generator lives inside each instance, and the
// poll fast path (poll-fast-path.ts) answers requests Fastify never sees: both take their ids from one sequence, so
// the ids in the log stay unique and in arrival order whichever path answered.

/** V8 keeps integers up to 2^31 − 1 as small integers; past that the counter wraps, as Fastify's own does. */
const MAX_ID = 2147483647;

/** `req-1`, `req-2`, … in base 36: the form Fastify's default generator gives, so log readers see no change. */
export function requestIdSequence(): () => string {
  let next = 0;
  return () => {
    next = (next + 1) & MAX_ID;
    return `req-${next.toString(36)}`;
  };
}
