/**
 * A generator of versions for ReplacingMergeTree rows: microseconds since the epoch, strictly
 * increasing for one store, so a later write of the same key wins. Each open store owns one.
 */
export function versionClock(now: () => number = Date.now): () => number {
  let last = 0;
  return () => {
    const v = Math.max(now() * 1000, last + 1);
    last = v;
    return v;
  };
}
