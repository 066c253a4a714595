// Stands in for @platformatic/kafka's protocol/crc32c.js where its records.js imports it, in the
// collector's bundle (build.mjs): `crc32c` of a DynamicBuffer reads its buffers in place
// (crc32c-chunks.mjs), natively through @node-rs/crc32 as the client's own prefers, else in JavaScript.
import { createRequire } from "node:module";
import { chunkedCrc32c, tableCrc32c } from "./crc32c-chunks.mjs";

function loadNative() {
  try {
    return createRequire(import.meta.url)("@node-rs/crc32").crc32c;
  } catch {
    return null;
  }
}

/** A DynamicBuffer (@platformatic/dynamic-buffer): its bytes are its `buffers`, in order. */
const isDynamic = (d) => d !== null && typeof d === "object" && Array.isArray(d.buffers);

export const crc32c = chunkedCrc32c(loadNative() ?? tableCrc32c, isDynamic);
