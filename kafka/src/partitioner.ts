/**
 * The producer's partitioner: Kafka's Java producer's `Utils.toPositive(Utils.murmur2(key))` (the
 * producer takes it modulo the partition count), in 32-bit integer arithmetic (`Math.imul`). The
 * client's own `compatibilityPartitioner` gives the same numbers through BigInt, one heap number per
 * operation: 10 records per request made it 1.5% of the collector's CPU at 1 client on small bodies
 * (perf, issue 38). Tests check it against that function and a port of the Java source.
 */

const SEED = 0x9747b28c;
const M = 0x5bd1e995;
const R = 24;

/** Kafka's `Utils.murmur2` of `data`, a signed 32-bit integer. */
export function murmur2(data: Uint8Array): number {
  const length = data.length;
  let h = SEED ^ length;
  const whole = length & ~3;
  for (let i = 0; i < whole; i += 4) {
    let k = data[i]! | (data[i + 1]! << 8) | (data[i + 2]! << 16) | (data[i + 3]! << 24);
    k = Math.imul(k, M);
    k ^= k >>> R;
    k = Math.imul(k, M);
    h = Math.imul(h, M) ^ k;
  }
  // Java's switch over length % 4 falls through from 3 to 1.
  const rest = length - whole;
  if (rest === 3) h ^= data[whole + 2]! << 16;
  if (rest >= 2) h ^= data[whole + 1]! << 8;
  if (rest >= 1) h = Math.imul(h ^ data[whole]!, M);
  h ^= h >>> 13;
  h = Math.imul(h, M);
  h ^= h >>> 15;
  return h | 0;
}

/** A record's partition before the modulo: toPositive(murmur2(key)); 0 without a key (as the client's compatibilityPartitioner). */
export function javaCompatiblePartitioner(_message: unknown, key: Buffer | undefined): number {
  return key instanceof Uint8Array ? murmur2(key) & 0x7fffffff : 0;
}
