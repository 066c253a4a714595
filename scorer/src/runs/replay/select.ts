import { RagmeterError } from "@ragmeter/runtime";
import type { ReplaySource } from "@ragmeter/store/interactions";

// The selection itself (SQL) is a repository of the interactions table.
export { type CapturedInteraction, type ReplaySource, selectInteractions } from "@ragmeter/store/interactions";

/** A `--from` value that cannot be parsed (exit 2). */
export class ReplaySpecError extends RagmeterError {
  override readonly name = "ReplaySpecError";
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, { code: "usage", cause: options?.cause });
  }
}

const DURATION = /^(\d+)(m|h|d)$/u;

function time(value: string, now: number, key: string): Date {
  const d = DURATION.exec(value);
  if (d) return new Date(now - Number(d[1]) * { m: 60_000, h: 3_600_000, d: 86_400_000 }[d[2] as "m" | "h" | "d"]);
  const t = Date.parse(value);
  if (Number.isNaN(t)) throw new ReplaySpecError(`--from: ${key}="${value}" is neither an ISO time nor a duration like 24h, 7d, 30m`);
  return new Date(t);
}

/**
 * Parses `--from`: a run id (`r-…`, or `live`), or comma-separated filters
 * `since=<ISO time|duration>`, `until=…`, `pipeline=<version>`, `service=<name>`,
 * `source=golden|replay|live`, e.g. `since=24h,service=rag-api,pipeline=v7`.
 * @throws ReplaySpecError naming the bad part.
 */
export function parseReplaySource(spec: string, now: number): ReplaySource {
  const s = spec.trim();
  if (s.length === 0) throw new ReplaySpecError("--from: empty");
  if (!s.includes("=")) return { kind: "run", runId: s };
  const f: Filters = { since: null, until: null, pipeline: null, service: null, source: null };
  for (const part of s.split(",")) setFilter(f, part, now);
  return { kind: "filter", ...f };
}

/** The filters of a `--from` spec (null: not given). */
interface Filters {
  since: Date | null;
  until: Date | null;
  pipeline: string | null;
  service: string | null;
  source: string | null;
}

/** Reads one `key=value` part of a `--from` spec into `f`. */
function setFilter(f: Filters, part: string, now: number): void {
  const [key, ...rest] = part.split("=");
  const k = (key ?? "").trim();
  const v = rest.join("=").trim();
  if (v.length === 0) throw new ReplaySpecError(`--from: "${part}" has no value`);
  if (k === "since" || k === "until") f[k] = time(v, now, k);
  else if (k === "pipeline" || k === "service") f[k] = v;
  else if (k === "source") {
    if (!["golden", "replay", "live"].includes(v)) throw new ReplaySpecError(`--from: source="${v}" must be golden, replay or live`);
    f.source = v;
  } else throw new ReplaySpecError(`--from: unknown filter "${k}" (since, until, pipeline, service, source)`);
}
