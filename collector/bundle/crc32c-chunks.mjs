// CRC-32C of a record batch held as several buffers, without joining them first (issue 38).
// @platformatic/kafka's native CRC wrapper reads `DynamicBuffer#buffer`, which concatenates the
// batch's buffers into a fresh one (a copy of every record, per produce call): at 32 clients on
// production-sized bodies that copy was 3% of the collector's samples and a share of its garbage.
// @node-rs/crc32 carries the CRC from one buffer to the next (its second argument), so each buffer
// is read where it is. Used by the bundle in place of the client's own (build.mjs, crc32c-kafka.mjs).

/**
 * @param {(input: Uint8Array, initial?: number) => number} native CRC-32C continuing from `initial`
 * @param {(data: unknown) => boolean} isDynamic true for a DynamicBuffer (its `buffers` are read in order)
 * @returns {(data: Uint8Array | ArrayBuffer | { buffers: Uint8Array[] }) => number}
 */
export function chunkedCrc32c(native, isDynamic) {
  return (data) => {
    if (isDynamic(data)) {
      let crc = 0;
      for (const b of data.buffers) crc = native(b, crc);
      return crc;
    }
    return native(data instanceof Uint8Array ? data : new Uint8Array(data));
  };
}

const TABLE = new Uint32Array(256);
for (let n = 0; n < 256; n++) {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? (c >>> 1) ^ 0x82f63b78 : c >>> 1;
  TABLE[n] = c >>> 0;
}

/**
 * CRC-32C in JavaScript, continuing from `initial` as @node-rs/crc32 does (for when its native
 * module does not load; the client's own then falls back to WebAssembly).
 * @param {Uint8Array} input
 * @param {number} [initial]
 */
export function tableCrc32c(input, initial = 0) {
  let crc = (initial ^ 0xffffffff) >>> 0;
  for (let i = 0; i < input.length; i++) crc = TABLE[(crc ^ input[i]) & 0xff] ^ (crc >>> 8);
  return (crc ^ 0xffffffff) >>> 0;
}
