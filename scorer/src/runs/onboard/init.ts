// `ragmeter init`: one real question to a team's service, the mapping of its reply, and the files
// that take the team from that service to a first stored run and a CI gate.
import path from "node:path";
import type { RetrievedItem } from "@ragmeter/core/domain/metrics/recall";
import type { TargetReply } from "../target.js";
import { mapTargetReply } from "../targetConfig.js";
import { loadTargetModule, moduleTarget } from "../targetModule.js";
import { GATE_RULES, starterGoldenText, targetConfigOf, targetConfigText, workflowText } from "./files.js";
import { InitError, probeService, questionField } from "./probe.js";
import type { ReplyMapping } from "./replyShape.js";

/** What `init` asks and where it writes (paths as the user gave them). */
export interface InitOptions {
  /** Exactly one of `url` and `module`. */
  readonly url?: string;
  /** As the user gave it (written into the workflow); loaded relative to `cwd`. */
  readonly module?: string;
  readonly cwd: string;
  readonly question: string;
  /** Contexts asked for (`top_k` in a body that needs it, `k` of a module). */
  readonly k: number;
  readonly timeoutMs: number;
  readonly configFile: string;
  readonly goldenFile: string;
  /** null: no workflow. */
  readonly workflowFile: string | null;
}

/** One file `init` proposes to write. */
interface PlannedFile {
  readonly path: string;
  /** What it is, one line. */
  readonly what: string;
  readonly text: string;
}

/** What `init` found and proposes. */
export interface InitPlan {
  /** Lines to show before asking: the request that worked, the reply, the mapping. */
  readonly report: readonly string[];
  readonly files: readonly PlannedFile[];
  /** The eval command that uses the written files. */
  readonly evalCommand: string;
}

const REPLY_LINES = 30;

/** The reply as indented JSON, cut to {@link REPLY_LINES} lines, long strings shortened. */
function showReply(json: unknown): string[] {
  const lines = JSON.stringify(json, (_k, v: unknown) => (typeof v === "string" && v.length > 120 ? `${v.slice(0, 117)}...` : v), 2).split("\n");
  return lines.length <= REPLY_LINES ? lines : [...lines.slice(0, REPLY_LINES), `… (${lines.length - REPLY_LINES} more lines)`];
}

const quote = (s: string, n = 70): string => JSON.stringify(s.length > n ? `${s.slice(0, n - 1)}…` : s);

/** The mapping as the user reads it: each path and the value it found. */
function showMapping(m: ReplyMapping, top: RetrievedItem | undefined): string[] {
  const out = [`proposed mapping (JSONPath):`, `  answer       ${m.answer.path}  ${quote(m.answer.value)} (${m.answer.value.length} characters)`];
  if (m.contexts !== null) out.push(...showContexts(m.contexts, top));
  const u = m.usage;
  out.push(
    u.input_tokens === null && u.output_tokens === null
      ? "  token usage  none found (no prompt_tokens / completion_tokens-like field)"
      : `  token usage  input ${u.input_tokens ?? "—"}, output ${u.output_tokens ?? "—"} (shown only: a target config does not read token usage; spans do, see eval --via-traces)`,
  );
  return out;
}

/** The contexts' paths, each with the value it found in the top context. */
function showContexts(c: NonNullable<ReplyMapping["contexts"]>, top: RetrievedItem | undefined): string[] {
  const topScore = c.score !== null && top?.score !== null && top?.score !== undefined ? `  ${top.score}` : "";
  return [
    `  contexts     ${c.path}  (${c.count} in this reply)`,
    `    id         ${c.id}${top ? `  ${quote(top.id, 40)}` : ""}`,
    `    document   ${c.document_id ?? `(none found: the id stands for the document; if another field names the document, add "document_id": "$.<field>" to the config's response.context)`}${c.document_id !== null && top ? `  ${quote(top.document_id, 40)}` : ""}`,
    `    text       ${c.text}${top ? `  ${quote(top.text, 50)}` : ""}`,
    `    score      ${c.score ?? "(none)"}${topScore}`,
  ];
}

/** Files common to both kinds of target: the starter golden set and the workflow. */
function commonFiles(o: InitOptions, top: RetrievedItem, answer: string, targetFlag: string, where: string): { files: PlannedFile[]; evalCommand: string } {
  const files: PlannedFile[] = [
    {
      path: o.goldenFile,
      what: `starter golden set: 1 item, unconfirmed (expected source ${quote(top.document_id, 50)} and its sentence nearest the answer, from the top context)`,
      text: starterGoldenText(o.question, top, where, answer),
    },
  ];
  if (o.workflowFile !== null)
    files.push({
      path: o.workflowFile,
      what: `CI workflow: eval on each pull request, then compare with the last run on main --fail-on "${GATE_RULES}"`,
      text: workflowText({ target: targetFlag, golden: o.goldenFile, url: o.url ?? null }),
    });
  return { files, evalCommand: `npx ragmeter eval --golden ${o.goldenFile} ${targetFlag} --pipeline-version v1` };
}

/** Checks a reply has an answer and a context to build the starter item from. */
function needContexts(contexts: readonly RetrievedItem[], where: string): RetrievedItem {
  const top = contexts[0];
  if (top === undefined)
    throw new InitError(
      `init: ${where}: the reply has no contexts, so recall cannot be measured nor a starter item built; ask a question it retrieves documents for (--question "…")`,
    );
  return top;
}

/**
 * Asks the service (or module) the question and plans the files. Writes nothing.
 * @throws InitError: unreachable, not JSON, no answer-like text, no contexts, a module that cannot
 *   be loaded or answers outside the contract.
 */
export async function planInit(o: InitOptions): Promise<InitPlan> {
  if ((o.url === undefined) === (o.module === undefined)) throw new InitError("init: give either --url URL or --module FILE", "usage");
  if (o.module !== undefined) return planModule(o, o.module);
  const url = o.url as string;
  const probe = await probeService(url, o.question, { k: o.k, timeoutMs: o.timeoutMs });
  const report: string[] = [];
  const bodyShown = JSON.stringify(probe.body)
    .replace(/"\{\{question\}\}"/u, JSON.stringify(o.question))
    .replace(/"\{\{k\}\}"/u, String(o.k));
  for (const a of probe.attempts)
    report.push(`POST ${url} ${a.failure === null ? bodyShown : JSON.stringify(a.body)} → ${a.failure === null ? "a reply with an answer" : a.failure.split("\n")[0]}`);
  const field = questionField(probe.body);
  if (probe.attempts.length > 1) report.push(`the service takes the question as "${field.path}"${field.topK ? ` with "top_k"` : ""}`);
  report.push("reply:", ...showReply(probe.json).map((l) => `  ${l}`));
  const m = probe.mapping;
  if (m.contexts === null)
    throw new InitError(
      `init: ${url}: the reply has no list of contexts (an array of objects with a text field), so recall cannot be measured; ask a question it retrieves documents for (--question "…"), or return the retrieved chunks in the reply`,
    );
  const cfg = targetConfigOf(url, probe.body, { ...m, contexts: m.contexts });
  // the written config, read back through eval's own mapping: what eval will see
  const mapped = mapTargetReply(cfg, probe.json);
  const top = needContexts(mapped.contexts, url);
  report.push(...showMapping(m, top));
  report.push(`checked: eval's mapping reads this reply as an answer of ${mapped.answer.length} characters and ${mapped.contexts.length} contexts`);
  const rest = commonFiles(o, top, mapped.answer, `--target-config ${o.configFile}`, url);
  return {
    report,
    files: [{ path: o.configFile, what: `target config: POST ${JSON.stringify(probe.body)}, the mapping above`, text: targetConfigText(cfg) }, ...rest.files],
    evalCommand: rest.evalCommand,
  };
}

/** `--module FILE`: the module answers in ragmeter's contract already; no target config is written. */
async function planModule(o: InitOptions, file: string): Promise<InitPlan> {
  const target = moduleTarget(await loadTargetModule(path.resolve(o.cwd, file)), { k: o.k, timeoutMs: o.timeoutMs, file });
  const r = await target.ask(o.question, { traceparent: "00-00000000000000000000000000000001-0000000000000001-01", baggage: "" });
  if (!r.ok) throw new InitError(`init: --module ${file}: ${r.reason}`);
  const reply: TargetReply = r.reply;
  if (!/\S+\s+\S+\s+\S+/u.test(reply.answer)) throw new InitError(`init: --module ${file}: the reply has no text that looks like an answer (answer: ${quote(reply.answer)})`);
  const top = needContexts(reply.contexts, `--module ${file}`);
  const report = [
    `asked module ${file}: ${quote(o.question)}`,
    "reply:",
    ...showReply({ answer: reply.answer, contexts: reply.contexts }).map((l) => `  ${l}`),
    `the module answers {answer, contexts} itself: no target config needed (eval --target-module ${file})`,
  ];
  const rest = commonFiles(o, top, reply.answer, `--target-module ${file}`, `module ${file}`);
  return { report, files: rest.files, evalCommand: rest.evalCommand };
}
