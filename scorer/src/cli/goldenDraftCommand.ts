import { access, writeFile } from "node:fs/promises";
import path from "node:path";
import { selectTrafficQuestions } from "@ragmeter/store/traffic";
import { type Command, InvalidArgumentError, type Option } from "commander";
import { readDocuments, spreadPassages } from "../runs/draft/documents.js";
import { DraftError } from "../runs/draft/errors.js";
import { DROP_REASONS, type DropReason, draftFromDocs } from "../runs/draft/fromDocs.js";
import { draftFromTraffic } from "../runs/draft/fromTraffic.js";
import { type DraftedItem, draftFileText } from "../runs/draft/reviewFile.js";
import { intArg } from "./args.js";
import { commandConfig, type Io, withStore } from "./context.js";
import { assertWritable, EXIT } from "./evalCommand.js";
import { beforeArg } from "./forgetCommand.js";
import { durationArg } from "./liveCommand.js";

/** Flags of `ragmeter golden draft`. */
interface DraftFlags {
  readonly fromTraffic?: boolean;
  readonly fromDocs?: string;
  readonly service?: string;
  readonly since?: Date;
  readonly n: number;
  readonly out: string;
  readonly force?: boolean;
  readonly home?: string;
}

/** `--since`: a duration back from now (`7d`, `12h`) or a date (UTC). */
function sinceArg(v: string): Date {
  if (/^\d+[smhd]$/u.test(v.trim())) return new Date(Date.now() - durationArg(v));
  try {
    return beforeArg(v);
  } catch {
    throw new InvalidArgumentError("expected a duration such as 7d or 12h, or a date such as 2026-01-31 (UTC)");
  }
}

const plural = (n: number, one: string, many = `${one}s`): string => `${n} ${n === 1 ? one : many}`;

/** Writes the review file; refuses to replace one without `--force` (a person's confirmations would be lost). */
async function writeReviewFile(io: Io, flags: DraftFlags, header: readonly string[], items: readonly DraftedItem[]): Promise<string> {
  const out = path.resolve(io.cwd, flags.out);
  if (
    flags.force !== true &&
    (await access(out).then(
      () => true,
      () => false,
    ))
  )
    throw new DraftError(`golden draft: --out ${flags.out} exists: not overwritten (a reviewed file would be lost; --force overwrites)`, "usage");
  await writeFile(out, draftFileText(header, items));
  return out;
}

/** `golden draft --from-traffic`: distinct questions of captured traffic with their top document. */
async function draftTraffic(io: Io, flags: DraftFlags): Promise<number> {
  return withStore(io, flags, async (store) => {
    const questions = await selectTrafficQuestions(store, { since: flags.since ?? null, service: flags.service ?? null });
    const scope = `${flags.service !== undefined ? ` of service "${flags.service}"` : ""}${flags.since !== undefined ? ` since ${flags.since.toISOString()}` : ""}`;
    if (questions.length === 0)
      throw new DraftError(`golden draft: no captured question${scope} with retrieved documents in the store (live traffic with content capture on: see \`ragmeter serve\`)`);
    const d = draftFromTraffic(questions, flags.n);
    const summary = `${plural(d.items.length, "question")} drawn from ${plural(d.read, "distinct captured question")}${scope} (${d.read - d.groups} near-duplicates merged into ${plural(d.groups, "group")}) over ${plural(d.services.length, "service")}: ${d.services.map((s) => s || "(no name)").join(", ")}`;
    const out = await writeReviewFile(
      io,
      flags,
      [
        `Drafted by \`ragmeter golden draft --from-traffic\` from ${store.location}: ${summary}.`,
        "Each expected source is the document the service ranked first for the question, not one a person chose.",
      ],
      d.items,
    );
    io.out(`review file: ${out}\n${summary}`);
    io.out(`check each item, fix what is wrong and delete its "unconfirmed": true, then run: npx ragmeter golden check ${flags.out}`);
    return EXIT.done;
  });
}

/** `golden draft --from-docs`: the LLM writes questions from passages; what passes the checks is kept. */
async function draftDocs(io: Io, flags: DraftFlags, from: string): Promise<number> {
  const config = commandConfig(io, flags);
  if (config.judge === null)
    throw new DraftError(
      "golden draft --from-docs needs an LLM to write the questions: set OPENAI_BASE_URL and RAGMETER_JUDGE_MODEL (the LLM judge's endpoint, and OPENAI_API_KEY if it needs one)",
      "config",
    );
  await assertWritable(path.resolve(io.cwd, flags.out), "--out");
  const docs = await readDocuments(path.resolve(io.cwd, from));
  const passages = spreadPassages(docs, flags.n);
  if (passages.length === 0) throw new DraftError(`golden draft: --from-docs ${from}: no passage of 120 characters or more in ${plural(docs.length, "document")}`);
  const j = config.judge;
  const d = await draftFromDocs(docs, passages, {
    baseURL: j.baseURL,
    ...(j.apiKey !== undefined ? { apiKey: j.apiKey } : {}),
    model: j.model,
    timeoutMs: j.timeoutMs,
    contextTokens: j.contextTokens,
    concurrency: j.concurrency,
    rpm: j.rpm,
    maxRetries: j.retries,
    maxOutputTokens: j.maxOutputTokens,
  });
  const droppedTotal = d.proposed - d.items.length;
  const reasons = (Object.entries(d.dropped) as [DropReason, number][]).filter(([, n]) => n > 0);
  const summary = `${d.proposed} proposed from ${plural(passages.length, "passage")} of ${plural(docs.length, "document")}, ${d.items.length} kept, ${droppedTotal} dropped${reasons.length > 0 ? ` (${reasons.map(([r, n]) => `${r} ${n}`).join(", ")})` : ""}`;
  const out = await writeReviewFile(
    io,
    flags,
    [
      `Drafted by \`ragmeter golden draft --from-docs ${from}\` with ${j.model}: ${summary}.`,
      "Each question was written by the LLM from one passage; its key facts were found in that passage and its substring once in the document.",
    ],
    d.items,
  );
  io.out(`review file: ${out}\n${summary}`);
  for (const [r, n] of reasons) io.out(`  dropped ${n}: ${DROP_REASONS[r]}`);
  io.out(`LLM ${j.model}: ${plural(d.calls, "call")}, tokens in ${d.inputTokens} / out ${d.outputTokens}`);
  io.out(`check each item, fix what is wrong and delete its "unconfirmed": true, then run: npx ragmeter golden check ${flags.out} --corpus ${from}`);
  return EXIT.done;
}

/**
 * `ragmeter golden draft`: a first golden set without writing it by hand, from captured traffic
 * (`--from-traffic`) or from documents (`--from-docs PATH`, with the LLM judge's endpoint), written
 * as a review file (a golden set whose items are all unconfirmed) for a person to confirm.
 */
async function goldenDraftCommand(io: Io, flags: DraftFlags): Promise<number> {
  if ((flags.fromTraffic === true) === (flags.fromDocs !== undefined)) throw new DraftError("golden draft: give either --from-traffic or --from-docs PATH", "usage");
  if (flags.fromDocs !== undefined && (flags.service !== undefined || flags.since !== undefined))
    throw new DraftError("golden draft: --service and --since select captured traffic: use them with --from-traffic", "usage");
  return flags.fromDocs !== undefined ? draftDocs(io, flags, flags.fromDocs) : draftTraffic(io, flags);
}

/** Registers `ragmeter golden draft` under `golden`. */
export function registerGoldenDraftCommand(golden: Command, io: Io, result: { code: number }, home: () => Option): void {
  golden
    .command("draft")
    .description("draft a golden set for a person to confirm: from captured traffic (no LLM) or from documents (the LLM judge's endpoint writes the questions)")
    .option("--from-traffic", "distinct questions of captured live traffic, near-duplicates merged, spread over services and time, each with its top retrieved document")
    .option("--from-docs <path>", "a folder of .md, .txt and .html files, or a JSONL file of {id, text}: one question per passage")
    .option("--service <name>", "--from-traffic: only this service's traffic")
    .option("--since <when>", "--from-traffic: only traffic since then (7d, 12h, or a date such as 2026-01-31)", sinceArg)
    .option("--n <n>", "questions to draft (passages asked about, with --from-docs)", intArg(1, 10_000), 20)
    .option("--out <file>", "review file to write (JSONL golden set, every item unconfirmed)", "golden-draft.jsonl")
    .option("--force", "overwrite the review file if it exists")
    .addOption(home())
    .action(async (o: DraftFlags) => {
      result.code = await goldenDraftCommand(io, o);
    });
}
