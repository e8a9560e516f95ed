// Running one piece of asynchronous work per item with at most `limit` running at once, results in the items' order:
// how a scan reads many SKILL.md files without exhausting descriptors (scan-skills-dir.ts READ_CONCURRENCY), and how
// the search index reads bodies (live-index/search-index.ts).

export async function mapWithLimit<T, R>(
  items: readonly T[],
  limit: number,
  work: (item: T) => R | Promise<R>,
): Promise<R[]> {
  const results = new Array<R>(items.length);
  let next = 0;
  async function worker(): Promise<void> {
    while (next < items.length) {
      const index = next++;
      results[index] = await work(items[index]!);
    }
  }
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return results;
}
