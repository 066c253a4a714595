import { type Command, InvalidArgumentError, Option } from "commander";
import type { Io } from "./context.js";

/** What a command needs to register itself: the I/O, where its exit code goes, a fresh `--home` option. */
export interface CommandContext {
  readonly io: Io;
  readonly result: { code: number };
  readonly home: () => Option;
}

function usd(v: string): number {
  const r = Number(v);
  if (!Number.isFinite(r) || r <= 0) throw new InvalidArgumentError("expected a positive amount in USD, e.g. 0.50");
  return r;
}

/** Judge flags shared by `eval` and `demo`. */
export function judgeOptions(cmd: Command): Command {
  return cmd
    .option("--no-cache", "do not read or write the judge cache")
    .option("--repeat <n>", "run each judge N times per question (bypasses the cache) and report judge variance", intArg(1, 20), 1)
    .option("--max-cost <usd>", "stop judging once the estimated judge cost reaches this (USD; needs RAGMETER_PRICES); the rest is not_sampled", usd);
}

export function intArg(min: number, max = Number.MAX_SAFE_INTEGER) {
  return (v: string): number => {
    const n = Number(v);
    if (!Number.isInteger(n) || n < min || n > max) throw new InvalidArgumentError(`expected an integer from ${min} to ${max}`);
    return n;
  };
}

/** `--k <list>` with its default shown as typed (`1,3,5,10`), not as an array. */
export function kOption(): Option {
  return new Option("--k <list>", "k values of recall@k, comma-separated").argParser(kList).default([1, 3, 5, 10], "1,3,5,10");
}

function kList(v: string): number[] {
  const ks = v.split(",").map((s) => Number(s.trim()));
  if (ks.length === 0 || ks.some((k) => !Number.isInteger(k) || k < 1 || k > 1000)) throw new InvalidArgumentError("expected comma-separated integers ≥ 1, e.g. 1,3,5,10");
  return [...new Set(ks)].sort((a, b) => a - b);
}

/** A target URL: http or https, parsed (exit 2 otherwise). */
export function httpUrl(v: string): string {
  let u: URL;
  try {
    u = new URL(v);
  } catch {
    throw new InvalidArgumentError("expected an http(s) URL, e.g. http://127.0.0.1:8080/ask");
  }
  if (u.protocol !== "http:" && u.protocol !== "https:") throw new InvalidArgumentError(`expected an http(s) URL, got ${u.protocol}`);
  return u.toString();
}

/** A non-empty label such as a pipeline version. */
export function nonEmpty(v: string): string {
  if (v.trim().length === 0) throw new InvalidArgumentError("must not be empty");
  return v.trim();
}

export function rate(v: string): number {
  const r = Number(v);
  if (!Number.isFinite(r) || r < 0 || r > 1) throw new InvalidArgumentError("expected a number from 0 to 1");
  return r;
}
