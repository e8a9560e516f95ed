// `If-None-Match` (RFC 9110 §13.1.2): weak comparison, a list of tags, or `*`.

export function matchesIfNoneMatch(header: string | undefined, etag: string): boolean {
  if (header === undefined) return false;
  // A poller sends back the tag it was given: no list to split (GET /skills polls, docs/performance.md).
  if (header === etag) return true;
  const wanted = opaque(etag);
  return header.split(',').some((candidate) => {
    const tag = candidate.trim();
    return tag === '*' || opaque(tag) === wanted;
  });
}

function opaque(tag: string): string {
  return tag.startsWith('W/') ? tag.slice(2) : tag;
}
