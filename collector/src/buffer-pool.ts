/**
 * Reusable buffers for request bodies and the records cut from them. A body of declared length is
 * read straight into a buffer taken here and given back once the request is decoded (its records are
 * copies); the records of a request are views of one buffer taken here and given back once every
 * produce call that carried one of them has settled. So the collector does not allocate (and V8
 * collect) fresh body-sized ArrayBuffers per request: at 32 clients on production-sized bodies those
 * allocations start most of its full garbage collections (issue 38, bench/README.md).
 */

/** Capacities are multiples of this (so bodies and record sets of about the same size share buffers). */
const GRANULE = 64 * 1024;
/** Smaller requests get a buffer of Node's own (`Buffer.allocUnsafe`), never one of the pool. */
const MIN_POOLED = 16 * 1024;

export interface BufferPool {
  /**
   * A buffer of at least `bytes` bytes (contents undefined): the smallest free one that fits and is
   * at most twice that plus 64 KiB, else a new one (under 16 KiB always a new one, of Node's own).
   */
  take(bytes: number): Buffer;
  /** Gives back a buffer from `take`; the caller keeps no view of it. Kept while the free ones stay within the pool's bytes. */
  give(buf: Buffer): void;
  /** Bytes of the free buffers. */
  freeBytes(): number;
}

/**
 * A pool keeping at most `maxFreeBytes` of free buffers of its own, none bigger than
 * `maxBufferBytes` (bigger ones are not kept).
 */
export function createBufferPool(maxFreeBytes: number, maxBufferBytes: number): BufferPool {
  const free: Buffer[] = [];
  let held = 0;
  return {
    take(bytes) {
      if (bytes < MIN_POOLED) return Buffer.allocUnsafe(bytes);
      let best = -1;
      for (let i = 0; i < free.length; i++) {
        const len = free[i]!.length;
        if (len >= bytes && len <= 2 * bytes + GRANULE && (best < 0 || len < free[best]!.length)) best = i;
      }
      if (best >= 0) {
        const buf = free[best]!;
        free[best] = free[free.length - 1]!;
        free.pop();
        held -= buf.length;
        return buf;
      }
      return Buffer.allocUnsafeSlow(Math.max(GRANULE, Math.ceil(bytes / GRANULE) * GRANULE));
    },
    give(buf) {
      // Only whole buffers of the pool's sizes (never a view into a shared slab).
      if (buf.byteOffset !== 0 || buf.buffer.byteLength !== buf.length) return;
      if (buf.length < GRANULE || buf.length > maxBufferBytes || held + buf.length > maxFreeBytes) return;
      free.push(buf);
      held += buf.length;
    },
    freeBytes: () => held,
  };
}
