/** Exact 64-bit integer conversions between bigint and protobufjs's Long-like `{low, high}`. */

/** protobufjs's representation of a 64-bit value: a `Long`, or a number when long.js is absent. */
export type LongLike = number | { low: number; high: number; unsigned?: boolean };

const U32 = 0xffffffffn;
export const UINT64_MAX = (1n << 64n) - 1n;
export const INT64_MIN = -(1n << 63n);
export const INT64_MAX = (1n << 63n) - 1n;

/** Converts a decoded protobufjs 64-bit value to a bigint; `signed` for int64, unsigned for fixed64. */
export function longToBigInt(v: LongLike | null | undefined, signed: boolean): bigint {
  if (v === null || v === undefined) return 0n;
  if (typeof v === "number") return BigInt(v);
  const u = (BigInt(v.high >>> 0) << 32n) | BigInt(v.low >>> 0);
  return signed ? BigInt.asIntN(64, u) : u;
}

/** Converts a bigint to the `{low, high}` bits protobufjs writers accept (two's complement). */
export function bigIntToBits(v: bigint): { low: number; high: number } {
  const u = BigInt.asUintN(64, v);
  return { low: Number(u & U32) | 0, high: Number((u >> 32n) & U32) | 0 };
}
