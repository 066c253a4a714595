import { writeFile } from "node:fs/promises";
import path from "node:path";
import type { RetrievedItem } from "@ragmeter/core/domain/metrics/recall";
import { checkGoldenSet, type GoldenCheck, type GoldenSet, loadGoldenSet, MATCH_MODES } from "@ragmeter/golden";
import { goldenItemsOfSet } from "@ragmeter/store/golden";
import { selectInteractions } from "@ragmeter/store/interactions";
import { getRun } from "@ragmeter/store/runs";
import type { Command } from "commander";
import { pinGoldenItems } from "../runs/pin.js";
import type { CommandContext } from "./args.js";
import { type Io, withStore } from "./context.js";
import { assertCorpusDir, assertWritable, EXIT, UsageError } from "./evalCommand.js";
import { registerGoldenDraftCommand } from "./goldenDraftCommand.js";

const pct = (x: number): string => `${(x * 100).toFixed(1)}%`;

/**
 * `ragmeter golden check FILE [--corpus DIR]`: validates the set (a bad line is the loader's one-line
 * error, exit 2), prints counts by match mode and tag, the unanswerable share, duplicate and
 * near-duplicate questions and, with a corpus, every substring not found or found more than once.
 * Exit 1 when it finds duplicates or such substrings, 2 for an empty set (`empty_golden_set`, as
 * `eval`), else 0.
 */
export async function goldenCheckCommand(io: Io, file: string, flags: { corpus?: string }): Promise<number> {
  if (flags.corpus !== undefined) await assertCorpusDir(flags.corpus);
  const set = await loadGoldenSet(file, flags.corpus !== undefined ? { corpusDir: flags.corpus } : {});
  for (const n of set.notices) io.err(`notice: ${set.path}: ${n}`);
  if (set.items.length === 0) {
    // as eval would refuse it: a set with no items is never "0 items, 0.0% unanswerable, all fine"
    io.err(`ragmeter: ${set.path}: empty_golden_set — the golden set has no items`);
    return EXIT.usage;
  }
  const c = await checkGoldenSet(set.items, flags.corpus);
  const out: string[] = [];
  out.push(`golden set ${set.path} · ${set.format} · ${c.items} item${c.items === 1 ? "" : "s"} · sha256 ${set.sha256.slice(0, 12)}`);
  out.push(`match modes: ${MATCH_MODES.map((m) => `${m} ${c.byMode[m]}`).join(", ")}`);
  out.push(`unanswerable: ${pct(c.unanswerableShare)} (${c.byMode.unanswerable} of ${c.items})`);
  const tags = Object.entries(c.byTag);
  out.push(`by tag: ${tags.length === 0 ? "no tags" : tags.map(([t, n]) => `${t} ${n}`).join(", ")}`);
  const dup = c.similarQuestions;
  out.push(dup.length === 0 ? "duplicate questions: none" : `duplicate or near-duplicate questions: ${dup.length}`);
  for (const d of dup) out.push(`  ${d.kind === "duplicate" ? "duplicate" : "near-duplicate"} ${d.a} ~ ${d.b} (word overlap ${d.similarity.toFixed(2)})`);
  if (c.substrings !== null) out.push(...substringLines(set, c.substrings, flags.corpus));
  io.out(out.join("\n"));
  if (c.unconfirmed.length > 0) io.err(unconfirmedWarning(c));
  return dup.length > 0 || (c.substrings !== null && c.substrings.length > 0) ? EXIT.gate : EXIT.done;
}

/** The substrings checked against the corpus, and each not found exactly once. */
function substringLines(set: GoldenSet, substrings: NonNullable<GoldenCheck["substrings"]>, corpus: string | undefined): string[] {
  const checked = set.items.filter((it) => it.expected_source !== null && it.expected_substring !== null).length;
  const head =
    checked === 0
      ? `substrings: none to check (no item has expected_source + expected_substring)`
      : substrings.length === 0
        ? `substrings: all ${checked} found exactly once in ${corpus}`
        : `substrings: ${substrings.length} of ${checked} not found exactly once in ${corpus}`;
  return [head, ...substrings.map((s) => `  ${s.id}: ${substringFinding(s)}`)];
}

/** Where a substring was not found exactly once. */
function substringFinding(s: NonNullable<GoldenCheck["substrings"]>[number]): string {
  if (s.occurrences === null) return `document "${s.source}" not found`;
  return s.occurrences === 0 ? `not found in "${s.source}"` : `found ${s.occurrences} times in "${s.source}"`;
}

/** The warning naming the first unconfirmed (drafted) items. */
function unconfirmedWarning(c: GoldenCheck): string {
  const shown = c.unconfirmed.slice(0, 5).join(", ");
  return `warning: ${c.unconfirmed.length} of ${c.items} items unconfirmed (drafted, no person has checked them): ${shown}${c.unconfirmed.length > 5 ? ", …" : ""} — check each question and its expected source, then delete its "unconfirmed": true`;
}

/**
 * `ragmeter golden pin --run RUN --out FILE`: writes the run's golden set as JSONL with its
 * chunk-id and document-only items turned into document + substring items, from the chunks the
 * target returned in that run (see `pinGoldenItems`); says which items could not be pinned.
 * @throws UsageError when the run is unknown or not a golden run.
 */
export async function goldenPinCommand(io: Io, flags: { run: string; out: string; home?: string }): Promise<number> {
  const out = path.resolve(io.cwd, flags.out);
  await assertWritable(out, "--out");
  return withStore(io, flags, async (store) => {
    const run = await getRun(store, flags.run);
    if (run === null) throw new UsageError(`golden pin: --run ${flags.run}: no such run (see \`ragmeter runs\`)`);
    if (run.source !== "golden" || run.golden_set_hash === "") throw new UsageError(`golden pin: --run ${flags.run}: a ${run.source} run, not a golden-set run`);
    const items = await goldenItemsOfSet(store, run.golden_set_hash);
    const retrieved = new Map<string, RetrievedItem[]>();
    for (const x of await selectInteractions(store, { kind: "run", runId: run.run_id }, null)) retrieved.set(x.golden_id, x.retrieved);
    const r = pinGoldenItems(items, retrieved);
    await writeFile(out, r.lines.map((l) => JSON.stringify(l)).join("\n") + (r.lines.length > 0 ? "\n" : ""));
    const candidates = r.pinned + r.notPinned.length;
    io.out(`wrote ${flags.out}: ${r.lines.length} items, ${r.pinned} of ${candidates} chunk-id or document-only items pinned to document + substring (run ${run.run_id})`);
    for (const n of r.notPinned) io.out(`  not pinned ${n.id}: ${n.reason}`);
    return EXIT.done;
  });
}

/** Registers `ragmeter golden check` and `ragmeter golden pin`. */
export function registerGoldenCommands(program: Command, ctx: CommandContext): void {
  const { io, result, home } = ctx;
  const golden = program.command("golden").description("check a golden set; pin chunk-id and document-only items to substrings; draft a set to confirm");
  golden
    .command("check <file>")
    .description("validate a golden set: counts by match mode and tag, unanswerable share, duplicate questions, substrings against a corpus")
    .option("--corpus <dir>", "documents named by expected_source: every substring not found or found more than once is listed")
    .action(async (file: string, o: { corpus?: string }) => {
      result.code = await goldenCheckCommand(io, file, o);
    });
  golden
    .command("pin")
    .description("turn chunk-id and document-only items into document + substring items from the chunks a run retrieved")
    .requiredOption("--run <run>", "golden run whose retrieved chunks are used")
    .requiredOption("--out <file>", "JSONL file to write")
    .addOption(home())
    .action(async (o: { run: string; out: string; home?: string }) => {
      result.code = await goldenPinCommand(io, o);
    });
  registerGoldenDraftCommand(golden, io, result, home);
}
