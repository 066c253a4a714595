import { countForgettable, type ForgetCounts, type ForgetSelection, forgetTraces, selectForgetTraces } from "@ragmeter/store/forget";
import { type Command, InvalidArgumentError } from "commander";
import type { CommandContext } from "./args.js";
import { type Io, withStore } from "./context.js";
import { EXIT, UsageError } from "./evalCommand.js";

/** Flags of `ragmeter forget` as commander parses them. */
export interface ForgetFlags {
  readonly traceId?: string[];
  readonly service?: string;
  readonly before?: Date;
  readonly dryRun?: boolean;
  readonly reason?: string;
  readonly json?: boolean;
  readonly home?: string;
}

/** Parses one `--trace-id` value (32 hex digits, stored lower-case) and collects the list. */
export function traceIdArg(v: string, previous: string[] = []): string[] {
  if (!/^[0-9a-fA-F]{32}$/u.test(v) || /^0+$/u.test(v)) throw new InvalidArgumentError("expected a trace id of 32 hex digits");
  return [...previous, v.toLowerCase()];
}

/** Parses `--before`: a UTC date (`2026-01-31`, midnight UTC) or an ISO time with its offset (`2026-01-31T12:00:00Z`). */
export function beforeArg(v: string): Date {
  const ok = /^\d{4}-\d{2}-\d{2}(?:T\d{2}:\d{2}(?::\d{2}(?:\.\d{1,3})?)?(?:Z|[+-]\d{2}:\d{2}))?$/u.test(v);
  const [y = 0, m = 0, d = 0] = v.slice(0, 10).split("-").map(Number);
  const day = new Date(Date.UTC(y, m - 1, d));
  const real = day.getUTCFullYear() === y && day.getUTCMonth() === m - 1 && day.getUTCDate() === d; // not 2026-02-30
  const t = ok && real ? Date.parse(v) : Number.NaN;
  if (!Number.isFinite(t)) throw new InvalidArgumentError("expected a date, e.g. 2026-01-31 (UTC) or 2026-01-31T12:00:00Z");
  return new Date(t);
}

/**
 * The selection the flags ask for.
 * @throws UsageError naming the flags: none or both selections, `--service` without `--before` or the reverse.
 */
export function forgetSelection(flags: ForgetFlags): ForgetSelection {
  const byId = flags.traceId !== undefined && flags.traceId.length > 0;
  const byService = flags.service !== undefined || flags.before !== undefined;
  if (byId && byService) throw new UsageError("forget: --trace-id cannot be combined with --service/--before");
  if (byId) return { kind: "traces", traceIds: flags.traceId ?? [] };
  if (!byService) throw new UsageError("forget: choose the traces: --trace-id ID… or --service NAME --before DATE");
  if (flags.service === undefined) throw new UsageError("forget: --before needs --service NAME");
  if (flags.before === undefined) throw new UsageError("forget: --service needs --before DATE");
  if (flags.service.trim() === "") throw new UsageError("forget: --service must not be empty");
  return { kind: "service", service: flags.service, before: flags.before };
}

function describeSelection(s: ForgetSelection): string {
  return s.kind === "traces" ? `--trace-id (${s.traceIds.length})` : `--service ${s.service} --before ${s.before.toISOString()}`;
}

/** The hint when the selection matched no trace: a mistyped service name or id forgets nothing, silently otherwise. */
export function nothingSelected(s: ForgetSelection): string {
  return s.kind === "traces"
    ? `ragmeter: forget: nothing of the ${s.traceIds.length} trace id(s) is in the store (never stored here, or forgotten and gone)`
    : `ragmeter: forget: no trace of service "${s.service}" before ${s.before.toISOString()} (the service name is matched exactly; \`ragmeter live\` lists the services seen)`;
}

/** The per-table lines `forget` prints. */
export function formatForget(c: ForgetCounts, dryRun: boolean, where: string): string[] {
  const w = (n: number): string => String(n).padStart(8);
  const del = dryRun ? "to delete" : "deleted";
  const blank = dryRun ? "to blank" : "blanked";
  return [
    `${dryRun ? "forget --dry-run: would forget" : "forgot"} ${c.traces} trace${c.traces === 1 ? "" : "s"} in ${where}`,
    `  spans        ${w(c.spans)}  ${del}`,
    `  logs         ${w(c.logs)}  ${del}`,
    `  interactions ${w(c.interactions)}  ${blank}: question, answer, retrieved items (status, times, scores kept)`,
    `  claims       ${w(c.claims)}  ${blank}: claim text (verdicts kept)`,
    `  scores       ${w(c.scores_kept)}  kept`,
    ...(dryRun ? ["nothing changed (--dry-run)"] : []),
  ];
}

/**
 * `ragmeter forget`: removes the captured content of the selected traces (design §13)
 * and records them so the scorer never stores or scores them again; `--dry-run` only counts.
 * Opens the store itself: on an embedded store owned by `serve`/`scorer` it fails "store in use".
 */
export async function forgetCommand(io: Io, flags: ForgetFlags): Promise<number> {
  const selection = forgetSelection(flags);
  return withStore(
    io,
    flags,
    async (store) => {
      const ids = await selectForgetTraces(store, selection);
      const dryRun = flags.dryRun === true;
      const counts = dryRun
        ? await countForgettable(store, ids)
        : await forgetTraces(store, ids, { reason: flags.reason ?? `ragmeter forget ${describeSelection(selection)}`, now: Date.now() });
      if (flags.json) io.out(JSON.stringify({ dry_run: dryRun, ...counts, trace_ids: ids }, null, 2));
      else for (const line of formatForget(counts, dryRun, store.location)) io.out(line);
      if (!flags.json && counts.spans + counts.logs + counts.interactions + counts.claims + counts.scores_kept === 0) io.err(nothingSelected(selection));
      return EXIT.done;
    },
    { retention: false },
  );
}

/** Registers `ragmeter forget`. */
export function registerForgetCommand(program: Command, ctx: CommandContext): void {
  const { io, result, home } = ctx;
  program
    .command("forget")
    .description("delete the captured content of traces (spans, log records, questions, answers, chunk and claim texts; scores stay) and never score them again")
    .option("--trace-id <id...>", "trace ids (32 hex digits)", traceIdArg)
    .option("--service <name>", "traces of this service (resource service.name) ...")
    .option("--before <date>", "... whose last span arrived before this date (UTC, e.g. 2026-01-31)", beforeArg)
    .option("--dry-run", "count what would be removed; change nothing")
    .option("--reason <text>", "why, recorded with each forgotten trace")
    .option("--json", "print JSON")
    .addOption(home())
    .action(async (o: ForgetFlags) => {
      result.code = await forgetCommand(io, o);
    });
}
