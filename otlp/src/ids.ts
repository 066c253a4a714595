/** Trace and span id helpers shared by the protobuf and JSON codecs. */

const HEX = /^[0-9a-fA-F]*$/;

/** Lower-case hex of `bytes`. */
export function bytesToHex(bytes: Uint8Array): string {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString("hex");
}

/** Bytes of a hex string whose validity the caller has checked. */
export function hexToBytes(hex: string): Buffer {
  return Buffer.from(hex, "hex");
}

/** True when every byte (or hex digit) is zero. */
export function isAllZero(bytes: Uint8Array): boolean {
  for (let i = 0; i < bytes.length; i++) if (bytes[i] !== 0) return false;
  return true;
}

/**
 * Checks a hex id of `digits` hex digits (case-insensitive, not all zeros) and returns it lower-cased,
 * or returns an error text saying what is wrong.
 */
export function checkHexId(value: string, digits: number): { ok: true; hex: string } | { ok: false; error: string } {
  if (value.length !== digits || !HEX.test(value)) {
    const looksBase64 = /^[A-Za-z0-9+/]+={0,2}$/.test(value) && !HEX.test(value);
    return {
      ok: false,
      error: `must be ${digits} hex digits, got ${JSON.stringify(value.length > 48 ? `${value.slice(0, 48)}…` : value)}${looksBase64 ? " (base64 is not accepted in OTLP/JSON)" : ""}`,
    };
  }
  if (/^0+$/.test(value)) return { ok: false, error: "must not be all zeros" };
  return { ok: true, hex: value.toLowerCase() };
}

/** Checks a binary id of `length` bytes (not all zeros) and returns its hex, or an error text. */
export function checkBinaryId(bytes: Uint8Array, length: number): { ok: true; hex: string } | { ok: false; error: string } {
  if (bytes.length !== length) return { ok: false, error: `must be ${length} bytes (${length * 2} hex digits), got ${bytes.length} bytes` };
  if (isAllZero(bytes)) return { ok: false, error: "must not be all zeros" };
  return { ok: true, hex: bytesToHex(bytes) };
}
