import type { RetrievedItem } from "../metrics/recall.js";
import type { StoredLog, StoredSpan } from "./spans.js";
import { documentsOf, indexed, jsonValue, lastMessageText, messageText, num, record, str, type RawDocument } from "./values.js";

/** Span conventions the scorer reads (design §4), in precedence order. */
export type Convention = "otel-genai" | "openinference" | "openllmetry" | "vercel-ai";

/** The interaction built from one trace (design §2). */
export interface Interaction {
  readonly trace_id: string;
  /** `golden` (golden id in baggage), `replay` (run id without golden id), or `live`. */
  readonly source: "golden" | "replay" | "live";
  readonly run_id: string | null;
  readonly golden_id: string | null;
  readonly pipeline_version: string | null;
  readonly service_name: string;
  readonly deployment_environment: string;
  /** The user's question, null when not captured. */
  readonly question: string | null;
  /** Retrieved items in recorded rank order; null when the trace has no retrieval span. */
  readonly retrieved: readonly RawDocument[] | null;
  /** The answer, null when not captured or when there is no generation. */
  readonly answer: string | null;
  readonly has_generation: boolean;
  readonly generator_model: string | null;
  /** Tokens of the generation call(s). */
  readonly input_tokens: number | null;
  readonly output_tokens: number | null;
  /** True when the instrumentation capped some content (`ragmeter.content.truncated`). */
  readonly truncated: boolean;
  /** Which convention the retrieval and the generation came from. */
  readonly conventions: { readonly retrieval: Convention | null; readonly generation: Convention | null };
}

interface RetrievalPart {
  readonly convention: Convention;
  readonly query: string | null;
  readonly docs: RawDocument[];
  readonly end: bigint;
}
interface GenerationPart {
  readonly convention: Convention;
  readonly question: string | null;
  readonly answer: string | null;
  readonly model: string | null;
  readonly input_tokens: number | null;
  readonly output_tokens: number | null;
  readonly end: bigint;
}

const GENAI_GENERATION_OPS = new Set(["chat", "text_completion", "generate_content"]);

/** OTel GenAI: retrieval and generation spans, with content on attributes, span events or log events. */
function otelGenAi(spans: readonly StoredSpan[], logs: readonly StoredLog[]): { r: RetrievalPart[]; g: GenerationPart[] } {
  const r: RetrievalPart[] = [];
  const g: GenerationPart[] = [];
  for (const s of spans) {
    const a = s.attributes;
    const op = str(a, "gen_ai.operation.name");
    if (op === "retrieval") {
      const docs = documentsOf(jsonValue(a["gen_ai.retrieval.documents"])) ?? [];
      r.push({ convention: "otel-genai", query: str(a, "gen_ai.retrieval.query.text"), docs, end: BigInt(s.end_time_unix_nano) });
    } else if (op !== null && GENAI_GENERATION_OPS.has(op)) {
      let input = jsonValue(a["gen_ai.input.messages"]);
      let output = jsonValue(a["gen_ai.output.messages"]);
      // Content sent as events (span events or OTLP log records linked by span id).
      const events = [...s.events.map((e) => ({ name: e.name, attributes: e.attributes, body: null as unknown })), ...logs.filter((l) => l.span_id === s.span_id).map((l) => ({ name: l.event_name, attributes: l.attributes, body: l.body as unknown }))];
      let userText: string | null = null;
      let choiceText: string | null = null;
      for (const e of events) {
        if (e.name === "gen_ai.client.inference.operation.details") {
          input ??= jsonValue(e.attributes["gen_ai.input.messages"]);
          output ??= jsonValue(e.attributes["gen_ai.output.messages"]);
        } else if (e.name === "gen_ai.user.message") {
          userText = messageText(e.body) ?? messageText(jsonValue(e.attributes["content"])) ?? str(e.attributes, "content") ?? userText;
        } else if (e.name === "gen_ai.choice") {
          choiceText = messageText(record(e.body)?.["message"] ?? e.body) ?? str(e.attributes, "message.content") ?? choiceText;
        }
      }
      const answer = lastMessageText(output, "assistant") ?? (Array.isArray(output) && output.length > 0 ? messageText(output[output.length - 1]) : null) ?? choiceText;
      g.push({
        convention: "otel-genai",
        question: lastMessageText(input, "user") ?? userText,
        answer,
        model: str(a, "gen_ai.response.model") ?? str(a, "gen_ai.request.model"),
        input_tokens: num(a, "gen_ai.usage.input_tokens") ?? num(a, "gen_ai.usage.prompt_tokens"),
        output_tokens: num(a, "gen_ai.usage.output_tokens") ?? num(a, "gen_ai.usage.completion_tokens"),
        end: BigInt(s.end_time_unix_nano),
      });
    }
  }
  return { r, g };
}

/** OpenInference: RETRIEVER / RERANKER spans with indexed documents; LLM spans with `llm.*`. */
function openInference(spans: readonly StoredSpan[]): { r: RetrievalPart[]; g: GenerationPart[]; chainQuestion: string | null } {
  const r: RetrievalPart[] = [];
  const g: GenerationPart[] = [];
  let chainQuestion: string | null = null;
  const docsAt = (a: StoredSpan["attributes"], prefix: string): RawDocument[] =>
    indexed(a, prefix).map((d, i) => {
      const meta = record(jsonValue(d["document.metadata"] ?? null)) ?? {};
      const id = str(d, "document.id") ?? (typeof d["document.id"] === "number" ? String(d["document.id"]) : String(i));
      const documentId = typeof meta["document_id"] === "string" ? meta["document_id"] : typeof meta["source"] === "string" ? meta["source"] : null;
      return { id, document_id: documentId, text: str(d, "document.content"), score: num(d, "document.score") };
    });
  for (const s of spans) {
    const a = s.attributes;
    const kind = str(a, "openinference.span.kind")?.toUpperCase();
    if (kind === "RETRIEVER") {
      r.push({ convention: "openinference", query: str(a, "input.value"), docs: docsAt(a, "retrieval.documents"), end: BigInt(s.end_time_unix_nano) });
    } else if (kind === "RERANKER") {
      r.push({ convention: "openinference", query: str(a, "reranker.query") ?? str(a, "input.value"), docs: docsAt(a, "reranker.output_documents"), end: BigInt(s.end_time_unix_nano) });
    } else if (kind === "LLM") {
      const inputs = indexed(a, "llm.input_messages").map((m) => ({ role: str(m, "message.role"), content: str(m, "message.content") }));
      const outputs = indexed(a, "llm.output_messages").map((m) => ({ role: str(m, "message.role"), content: str(m, "message.content") }));
      g.push({
        convention: "openinference",
        question: lastMessageText(inputs, "user"),
        answer: lastMessageText(outputs, "assistant") ?? outputs[outputs.length - 1]?.content ?? null,
        model: str(a, "llm.model_name"),
        input_tokens: num(a, "llm.token_count.prompt"),
        output_tokens: num(a, "llm.token_count.completion"),
        end: BigInt(s.end_time_unix_nano),
      });
    } else if (kind === "CHAIN" && s.parent_span_id === "") {
      chainQuestion = str(a, "input.value");
    }
  }
  return { r, g, chainQuestion };
}

/** OpenLLMetry (Traceloop): `gen_ai.prompt.<i>` / `gen_ai.completion.<i>` LLM spans; tasks whose output is a document list. */
function openLlmetry(spans: readonly StoredSpan[]): { r: RetrievalPart[]; g: GenerationPart[]; workflowQuestion: string | null } {
  const r: RetrievalPart[] = [];
  const g: GenerationPart[] = [];
  let workflowQuestion: string | null = null;
  for (const s of spans) {
    const a = s.attributes;
    const prompts = indexed(a, "gen_ai.prompt").map((m) => ({ role: str(m, "role"), content: str(m, "content") }));
    const completions = indexed(a, "gen_ai.completion").map((m) => ({ role: str(m, "role"), content: str(m, "content") }));
    if (prompts.length > 0 || completions.length > 0 || str(a, "llm.request.type") !== null) {
      g.push({
        convention: "openllmetry",
        question: lastMessageText(prompts, "user"),
        answer: lastMessageText(completions, "assistant") ?? completions[completions.length - 1]?.content ?? null,
        model: str(a, "gen_ai.response.model") ?? str(a, "gen_ai.request.model"),
        input_tokens: num(a, "gen_ai.usage.input_tokens") ?? num(a, "gen_ai.usage.prompt_tokens") ?? num(a, "llm.usage.prompt_tokens"),
        output_tokens: num(a, "gen_ai.usage.output_tokens") ?? num(a, "gen_ai.usage.completion_tokens") ?? num(a, "llm.usage.completion_tokens"),
        end: BigInt(s.end_time_unix_nano),
      });
      continue;
    }
    const kind = str(a, "traceloop.span.kind");
    if (kind === null) continue;
    const output = jsonValue(a["traceloop.entity.output"]);
    const input = record(jsonValue(a["traceloop.entity.input"]));
    const args = Array.isArray(input?.["args"]) ? (input?.["args"] as unknown[]) : [];
    const firstArg = typeof args[0] === "string" ? args[0] : null;
    if (kind === "workflow" && s.parent_span_id === "") workflowQuestion = firstArg;
    if (kind === "task" || kind === "tool") {
      const docs = documentsOf(output);
      if (docs !== null && docs.length > 0 && docs.some((d) => d.text !== null || d.document_id !== null)) {
        r.push({ convention: "openllmetry", query: firstArg, docs, end: BigInt(s.end_time_unix_nano) });
      }
    }
  }
  return { r, g, workflowQuestion };
}

/** Vercel AI SDK telemetry: `ai.generateText`/`ai.streamText` spans; retrieval from a tool call whose result is a document list. */
function vercelAi(spans: readonly StoredSpan[]): { r: RetrievalPart[]; g: GenerationPart[] } {
  const r: RetrievalPart[] = [];
  const g: GenerationPart[] = [];
  for (const s of spans) {
    const a = s.attributes;
    const op = str(a, "ai.operationId") ?? str(a, "operation.name") ?? s.name;
    if (op === "ai.toolCall" || s.name === "ai.toolCall") {
      const docs = documentsOf(jsonValue(a["ai.toolCall.result"] ?? a["ai.toolCall.output"]));
      if (docs !== null && docs.length > 0) {
        const args = record(jsonValue(a["ai.toolCall.args"] ?? a["ai.toolCall.input"]));
        const query = args ? (Object.values(args).find((v) => typeof v === "string") as string | undefined) ?? null : null;
        r.push({ convention: "vercel-ai", query, docs, end: BigInt(s.end_time_unix_nano) });
      }
    } else if (op === "ai.generateText" || op === "ai.streamText" || s.name === "ai.generateText" || s.name === "ai.streamText") {
      const prompt = record(jsonValue(a["ai.prompt"]));
      const question = (typeof prompt?.["prompt"] === "string" ? prompt["prompt"] : null) ?? lastMessageText(prompt?.["messages"], "user");
      g.push({
        convention: "vercel-ai",
        question,
        answer: str(a, "ai.response.text") ?? (a["ai.response.text"] === "" ? "" : null),
        model: str(a, "ai.response.model") ?? str(a, "ai.model.id"),
        input_tokens: num(a, "ai.usage.inputTokens") ?? num(a, "ai.usage.promptTokens"),
        output_tokens: num(a, "ai.usage.outputTokens") ?? num(a, "ai.usage.completionTokens"),
        end: BigInt(s.end_time_unix_nano),
      });
    }
  }
  return { r, g };
}

const latest = <T extends { end: bigint }>(xs: readonly T[]): T | null => xs.reduce<T | null>((best, x) => (best === null || x.end >= best.end ? x : best), null);

function attrAnywhere(spans: readonly StoredSpan[], key: string): string | null {
  for (const s of spans) {
    const v = str(s.attributes, key) ?? str(s.resource_attributes, key);
    if (v !== null) return v;
  }
  return null;
}

/**
 * Builds the interaction of one trace from its spans and log records (design §2, §4). For each of
 * retrieval and generation, the first convention in precedence order (OTel GenAI with ragmeter
 * extras, OpenInference, OpenLLMetry, Vercel AI SDK) that has it wins; within a convention the
 * latest-ending span is used (a reranker after a retriever). Run id, golden id and pipeline version
 * come from `ragmeter.*` attributes (baggage copied to spans) or the resource.
 */
export function extractInteraction(traceId: string, spans: readonly StoredSpan[], logs: readonly StoredLog[] = []): Interaction {
  const genai = otelGenAi(spans, logs);
  const oi = openInference(spans);
  const ol = openLlmetry(spans);
  const va = vercelAi(spans);
  const retrieval = latest(genai.r) ?? latest(oi.r) ?? latest(ol.r) ?? latest(va.r);
  const generation = latest(genai.g) ?? latest(oi.g) ?? latest(ol.g) ?? latest(va.g);
  const runId = attrAnywhere(spans, "ragmeter.run.id");
  const goldenId = attrAnywhere(spans, "ragmeter.golden.id");
  const truncated = spans.some((s) => s.attributes["ragmeter.content.truncated"] === true);
  const resource = spans[0]?.resource_attributes ?? {};
  return {
    trace_id: traceId,
    source: goldenId !== null ? "golden" : runId !== null ? "replay" : "live",
    run_id: runId,
    golden_id: goldenId,
    pipeline_version: attrAnywhere(spans, "ragmeter.pipeline.version"),
    service_name: spans.find((s) => s.service_name !== "")?.service_name ?? "",
    deployment_environment: str(resource, "deployment.environment.name") ?? str(resource, "deployment.environment") ?? "",
    question: retrieval?.query ?? generation?.question ?? oi.chainQuestion ?? ol.workflowQuestion,
    retrieved: retrieval ? retrieval.docs : null,
    answer: generation?.answer ?? null,
    has_generation: generation !== null,
    generator_model: generation?.model ?? null,
    input_tokens: generation?.input_tokens ?? null,
    output_tokens: generation?.output_tokens ?? null,
    truncated,
    conventions: { retrieval: retrieval?.convention ?? null, generation: generation?.convention ?? null },
  };
}

/** Retrieved items for scoring: a document id defaults to the chunk id; null when any text is missing. */
export function retrievedItems(i: Interaction): RetrievedItem[] | null {
  if (i.retrieved === null) return null;
  if (i.retrieved.some((d) => d.text === null)) return null;
  return i.retrieved.map((d) => ({ id: d.id, document_id: d.document_id ?? d.id, text: d.text as string, score: d.score }));
}
