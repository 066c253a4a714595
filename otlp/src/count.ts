/**
 * Counting the spans (or log records) of a protobuf export request without decoding it, so a
 * request over the limit of items is refused before any object is made (issue 39). Traces and logs
 * nest alike: field 1 of the request (ResourceSpans / ResourceLogs) holds field 2 (ScopeSpans /
 * ScopeLogs), which holds the items as field 2.
 */
import protobuf from "protobufjs/minimal.js";

type Reader = protobuf.Reader;
const skipType = (r: Reader, wireType: number): void => {
  (r as unknown as { skipType(w: number): void }).skipType(wireType);
};

interface Counts {
  items: number;
  /** Resources and scopes. */
  containers: number;
}

/** Counts the items and containers of a length-delimited message at `level` (0: the request, 1: a resource, 2: a scope). */
function countIn(r: Reader, end: number, level: number, c: Counts): void {
  while (r.pos < end) {
    const tag = r.uint32();
    const wt = tag & 7;
    const f = tag >>> 3;
    if (wt === 2 && ((level === 0 && f === 1) || (level > 0 && f === 2))) {
      const len = r.uint32();
      const inner = r.pos + len;
      if (inner > end) throw new RangeError("index out of range");
      if (level === 2) {
        c.items++;
      } else {
        c.containers++;
        countIn(r, inner, level + 1, c);
      }
      r.pos = inner;
      continue;
    }
    skipType(r, wt);
  }
}

/**
 * Spans (or log records) and resources and scopes of a protobuf request; null when the bytes are
 * malformed (the decoder then names the fault).
 */
export function countProtobufItems(body: Uint8Array): Counts | null {
  try {
    const r = protobuf.Reader.create(body);
    const c = { items: 0, containers: 0 };
    countIn(r, r.len, 0, c);
    return c;
  } catch {
    return null;
  }
}
