/**
 * Partition of a keyed record, as Kafka's Java client (`Utils.toPositive(Utils.murmur2(key)) %
 * partitions`) and kafkajs's default partitioner place it, so one trace id keeps one partition
 * whichever of them produced it. @platformatic/kafka's own default (`murmur2 >>> 0`) would put
 * about half the keys elsewhere. The producer applies the modulo (1.22: `partition %=
 * partitionsCount` once the topic's metadata is known).
 */

const SEED = 0x9747b28c;
const M = 0x5bd1e995;

/** Kafka's murmur2 (Java `Utils.murmur2`), a signed 32-bit integer. */
export function murmur2(data: Uint8Array): number {
  const length = data.length;
  let h = SEED ^ length;
  const length4 = length & ~3;
  for (let i = 0; i < length4; i += 4) {
    let k = data[i]! | (data[i + 1]! << 8) | (data[i + 2]! << 16) | (data[i + 3]! << 24);
    k = Math.imul(k, M);
    k ^= k >>> 24;
    k = Math.imul(k, M);
    h = Math.imul(h, M) ^ k;
  }
  const tail = length & 3;
  if (tail > 0) {
    if (tail === 3) h ^= data[length4 + 2]! << 16;
    if (tail >= 2) h ^= data[length4 + 1]! << 8;
    h ^= data[length4]!;
    h = Math.imul(h, M);
  }
  h ^= h >>> 13;
  h = Math.imul(h, M);
  h ^= h >>> 15;
  return h | 0;
}

/** The producer's partitioner: murmur2 of the record's key with the sign bit cleared (0 for a record without a key). */
export function recordPartitioner(message: { key?: Uint8Array | undefined }): number {
  const key = message.key;
  return key === undefined ? 0 : murmur2(key) & 0x7fffffff;
}
