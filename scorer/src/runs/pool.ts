/**
 * Maps `items` through `fn` with at most `concurrency` calls in flight, results in input order.
 * `concurrency` workers pull the next index, so a run of 20,000 questions holds a handful of
 * pending promises rather than one queued closure per question (issue 12). After a call throws, no
 * worker starts another item; the returned promise rejects with that first error once the calls in
 * flight have settled.
 */
export async function mapInPool<T, R>(items: readonly T[], concurrency: number, fn: (item: T, index: number) => Promise<R>): Promise<R[]> {
  const out: R[] = new Array(items.length);
  let next = 0;
  let failed = false;
  const worker = async (): Promise<void> => {
    while (!failed && next < items.length) {
      const i = next++;
      try {
        out[i] = await fn(items[i] as T, i);
      } catch (err) {
        failed = true;
        throw err;
      }
    }
  };
  const workers = Array.from({ length: Math.min(items.length, Math.max(1, Math.floor(concurrency))) }, worker);
  const settled = await Promise.allSettled(workers);
  const rejected = settled.find((s): s is PromiseRejectedResult => s.status === "rejected");
  if (rejected) throw rejected.reason;
  return out;
}
