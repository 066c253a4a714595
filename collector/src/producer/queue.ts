/**
 * Group commit, the pure part: records of concurrent requests share produce calls. A produce call
 * carries at most maxMessageBytes of records, so whatever the partitioning, no record batch can
 * exceed the broker's message limit. A request resolves when every chunk holding its records is
 * acknowledged, and fails with the first chunk that fails.
 */
import type { ProducedRecord } from "@ragmeter/kafka";

/** One request's records in the queue. */
export interface Job {
  /** Records not acknowledged yet (the job resolves at 0). */
  remaining: number;
  /** Records a produce call or the queue still holds (`release` runs at 0). */
  held: number;
  /** Gives the records' buffer back, once nothing holds them. */
  release: (() => void) | undefined;
  done: boolean;
  resolve: () => void;
  reject: (err: unknown) => void;
}

/** One record waiting for a produce call, with its estimated size in bytes. */
export interface Queued {
  job: Job;
  record: ProducedRecord;
  size: number;
}

/**
 * Takes the next produce call's records off the front of `queue`: records of settled jobs are
 * dropped, then records are taken while their sizes stay within `maxBytes` (the first one always).
 */
export function takeChunk(queue: Queued[], maxBytes: number): Queued[] {
  const chunk: Queued[] = [];
  let bytes = 0;
  let skip = 0;
  while (skip < queue.length) {
    const q = queue[skip]!;
    if (q.job.done) {
      letGo(q.job);
      skip++;
      continue;
    }
    if (chunk.length > 0 && bytes + q.size > maxBytes) break;
    chunk.push(q);
    bytes += q.size;
    skip++;
  }
  queue.splice(0, skip);
  return chunk;
}

/** One record of `job` is held no more (its produce call settled, or it left the queue unsent): the job's buffer goes back after the last. */
function letGo(job: Job): void {
  if (--job.held === 0) job.release?.();
}

/** A chunk was acknowledged: resolves each job whose last record it held. */
export function acknowledge(chunk: readonly Queued[]): void {
  for (const q of chunk) {
    if (!q.job.done && --q.job.remaining === 0) {
      q.job.done = true;
      q.job.resolve();
    }
    letGo(q.job);
  }
}

/** A chunk failed: rejects each job with a record in it that is not settled yet. */
export function failChunk(chunk: readonly Queued[], err: (cause: unknown) => unknown, cause: unknown): void {
  for (const q of chunk) {
    letGo(q.job);
    if (q.job.done) continue;
    q.job.done = true;
    q.job.reject(err(cause));
  }
}
