// The bundle's CRC-32C of a Kafka record batch held as several buffers (collector/bundle/crc32c-chunks.mjs,
// issue 38) against a bit-by-bit CRC-32C (Castagnoli, reflected 0x82F63B78) of the joined bytes.
import { createRequire } from "node:module";
import { describe, expect, it } from "vitest";
import { chunkedCrc32c, tableCrc32c } from "../../collector/bundle/crc32c-chunks.mjs";

const native = createRequire(import.meta.url)("@node-rs/crc32").crc32c as (input: Uint8Array, initial?: number) => number;

/** CRC-32C one bit at a time: the definition, not a table or a library. */
function reference(bytes: Uint8Array): number {
  let crc = 0xffffffff;
  for (const b of bytes) {
    crc ^= b;
    for (let k = 0; k < 8; k++) crc = crc & 1 ? (crc >>> 1) ^ 0x82f63b78 : crc >>> 1;
  }
  return (crc ^ 0xffffffff) >>> 0;
}

/** Stands in for @platformatic/dynamic-buffer's DynamicBuffer: its `buffers`, read in order. */
class Pieces {
  constructor(readonly buffers: Buffer[]) {}
}
const crc = chunkedCrc32c(native, (d) => d instanceof Pieces);
const js = chunkedCrc32c(tableCrc32c, (d) => d instanceof Pieces);

describe("CRC-32C over a batch's buffers in place", () => {
  it("gives the check value of the standard and of the reference", () => {
    const nine = Buffer.from("123456789");
    expect(reference(nine)).toBe(0xe3069283);
    expect(crc(nine)).toBe(0xe3069283);
    expect(crc(new Pieces([Buffer.from("1234"), Buffer.from(""), Buffer.from("56789")]))).toBe(0xe3069283);
  });
  it("equals the reference over the joined bytes for batches cut anywhere", () => {
    let seed = 38;
    const next = () => {
      seed = (seed * 1103515245 + 12345) >>> 0;
      return seed;
    };
    for (let round = 0; round < 20; round++) {
      const pieces = Array.from({ length: 1 + (next() % 12) }, () => {
        const b = Buffer.allocUnsafe(next() % 3000);
        for (let i = 0; i < b.length; i++) b[i] = next() & 0xff;
        return b;
      });
      const joined = Buffer.concat(pieces);
      expect(crc(new Pieces(pieces))).toBe(reference(joined));
      expect(js(new Pieces(pieces))).toBe(reference(joined));
      expect(crc(joined)).toBe(reference(joined));
      expect(crc(joined.buffer.slice(joined.byteOffset, joined.byteOffset + joined.length))).toBe(reference(joined));
    }
  });
});
