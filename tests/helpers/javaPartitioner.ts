// The partition Kafka's Java producer gives a keyed record, written here from the Java source so the
// tests check ragmeter's producer against it rather than against the client it uses:
// BuiltInPartitioner.partitionForKey = Utils.toPositive(Utils.murmur2(key)) % numPartitions, with
// org.apache.kafka.common.utils.Utils#murmur2 (seed 0x9747b28c, m 0x5bd1e995, r 24) and
// toPositive(n) = n & 0x7fffffff.

/** Kafka's `Utils.murmur2` of `data`, a signed 32-bit integer (Java int arithmetic through Math.imul). */
export function javaMurmur2(data: Uint8Array): number {
  const seed = 0x9747b28c;
  const m = 0x5bd1e995;
  const r = 24;
  const length = data.length;
  let h = seed ^ length;
  const length4 = Math.floor(length / 4);
  for (let i = 0; i < length4; i++) {
    const i4 = i * 4;
    let k = (data[i4]! & 0xff) + ((data[i4 + 1]! & 0xff) << 8) + ((data[i4 + 2]! & 0xff) << 16) + ((data[i4 + 3]! & 0xff) << 24);
    k = Math.imul(k, m);
    k ^= k >>> r;
    k = Math.imul(k, m);
    h = Math.imul(h, m);
    h ^= k;
  }
  // Java's switch falls through from case 3 to case 1.
  const rest = length % 4;
  if (rest >= 3) h ^= (data[(length & ~3) + 2]! & 0xff) << 16;
  if (rest >= 2) h ^= (data[(length & ~3) + 1]! & 0xff) << 8;
  if (rest >= 1) {
    h ^= data[length & ~3]! & 0xff;
    h = Math.imul(h, m);
  }
  h ^= h >>> 13;
  h = Math.imul(h, m);
  h ^= h >>> 15;
  return h | 0;
}

/** `Utils.toPositive(Utils.murmur2(key)) % partitions`: the Java producer's partition for `key` (UTF-8 text or bytes). */
export function javaPartition(key: string | Uint8Array, partitions: number): number {
  const bytes = typeof key === "string" ? Buffer.from(key, "utf8") : key;
  return (javaMurmur2(bytes) & 0x7fffffff) % partitions;
}

/** Kafka's own murmur2 test vectors (org.apache.kafka.common.utils.UtilsTest#testMurmur2). */
export const KAFKA_MURMUR2_VECTORS: readonly (readonly [string, number])[] = [
  ["21", -973932308],
  ["foobar", -790332482],
  ["a-little-bit-long-string", -985981536],
  ["a-little-bit-longer-string", -1486304829],
  ["lkjh234lh9fiuh90y23oiuhsafujhadof229phr9h19h89h8", -58897971],
  ["abc", 479470107],
];
