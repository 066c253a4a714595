import { createRagInstrumentation, type RagInstrumentation } from "@ragmeter/instrumentation";
import type OpenAI from "openai";
import { extractiveAnswer, injectFault } from "./answer.js";
import { type Chunk, chunkBySection, chunkFixed } from "./chunking.js";
import { loadCorpus } from "./corpus.js";
import { SAMPLE_CORPUS_DIR } from "./paths.js";
import { Bm25Retriever, type RetrievedChunk } from "./retriever.js";

/** The two versions of the sample pipeline (see README, "The bundled sample"). */
export type SamplePipelineVersion = "v1" | "v2";

/** A retrieved context in the target contract of `ragmeter eval` (rank order). */
export interface TargetContext {
  readonly id: string;
  readonly document_id: string;
  readonly text: string;
  readonly score: number;
}

/** Reply of the sample pipeline: the target contract `{answer, contexts}` plus generator facts. */
export interface SampleReply {
  readonly answer: string;
  readonly contexts: TargetContext[];
  /** Generator model (`extractive` when no LLM is configured). */
  readonly model: string;
  /** Token usage of the generation call; null for the extractive answer. */
  readonly usage: { readonly input_tokens: number; readonly output_tokens: number } | null;
}

/** Options of {@link createSamplePipeline}. */
export interface SamplePipelineOptions {
  readonly version: SamplePipelineVersion;
  /** Corpus folder (default: the bundled sample corpus). */
  readonly corpusDir?: string;
  /** Number of chunks retrieved (default 10). */
  readonly topK?: number;
  /**
   * LLM generation instead of the extractive answer: an `openai` client and a model. The version-2
   * fault is applied to LLM answers too.
   */
  readonly llm?: { readonly client: OpenAI; readonly model: string };
  /**
   * Hooks wrapping the two steps. Default: OpenTelemetry spans from `@ragmeter/instrumentation`
   * (a retrieval span and a generation span per question; no-ops until an SDK is registered).
   */
  readonly hooks?: SamplePipelineHooks;
  /** Instrumentation used by the default hooks (default: one created for this pipeline version). */
  readonly instrumentation?: RagInstrumentation;
}

/** Wrappers around the retrieval and the generation step (the instrumentation package plugs in here). */
export interface SamplePipelineHooks {
  retrieve(question: string, run: () => Promise<RetrievedChunk[]>): Promise<RetrievedChunk[]>;
  generate(question: string, contexts: readonly RetrievedChunk[], run: () => Promise<SampleReply>): Promise<SampleReply>;
}

/** A ready sample pipeline. */
export interface SamplePipeline {
  readonly version: SamplePipelineVersion;
  /** Number of chunks indexed. */
  readonly chunkCount: number;
  /** Answers `question` from the corpus. */
  ask(question: string): Promise<SampleReply>;
}

/**
 * Builds the bundled sample RAG pipeline: BM25 retrieval (MiniSearch) over chunks of the sample
 * corpus and an extractive (or LLM) answer.
 * - v1: one chunk per Markdown section.
 * - v2: fixed ~220-character chunks **and** a deliberate answer fault ({@link injectFault}).
 */
export async function createSamplePipeline(options: SamplePipelineOptions): Promise<SamplePipeline> {
  const docs = await loadCorpus(options.corpusDir ?? SAMPLE_CORPUS_DIR);
  const chunks: Chunk[] = docs.flatMap((d) => (options.version === "v1" ? chunkBySection(d) : chunkFixed(d)));
  const retriever = new Bm25Retriever(chunks);
  const topK = options.topK ?? 10;
  const llm = options.llm;
  const hooks =
    options.hooks ??
    instrumentationHooks(
      options.instrumentation ?? createRagInstrumentation({ pipelineVersion: `sample-${options.version}`, dataSourceId: SAMPLE_DATA_SOURCE }),
      topK,
      llm?.model ?? null,
    );

  const retrieve = async (question: string): Promise<RetrievedChunk[]> => retriever.search(question, topK);
  const generate = async (question: string, contexts: readonly RetrievedChunk[]): Promise<SampleReply> => {
    const ctx = contexts.map((c) => ({ id: c.id, document_id: c.documentId, text: c.text, score: c.score }));
    if (!llm) {
      let answer = extractiveAnswer(question, contexts, 2, 0.3, options.version === "v1" ? 2 : 1);
      if (options.version === "v2") answer = injectFault(question, answer);
      return { answer, contexts: ctx, model: "extractive", usage: null };
    }
    const res = await llm.client.chat.completions.create({
      model: llm.model,
      temperature: 0,
      messages: [
        {
          role: "system",
          content: "Answer the user's question using only the numbered context passages. If they do not contain the answer, say you could not find it in the documentation.",
        },
        { role: "user", content: `${contexts.map((c, i) => `[${i + 1}] ${c.text}`).join("\n\n")}\n\nQuestion: ${question}` },
      ],
    });
    let answer = res.choices[0]?.message.content ?? "";
    if (options.version === "v2") answer = injectFault(question, answer);
    const usage = res.usage ? { input_tokens: res.usage.prompt_tokens, output_tokens: res.usage.completion_tokens } : null;
    return { answer, contexts: ctx, model: res.model || llm.model, usage };
  };

  return {
    version: options.version,
    chunkCount: chunks.length,
    async ask(question: string): Promise<SampleReply> {
      const contexts = await hooks.retrieve(question, () => retrieve(question));
      return hooks.generate(question, contexts, () => generate(question, contexts));
    },
  };
}

/** `gen_ai.data_source.id` of the sample corpus. */
export const SAMPLE_DATA_SOURCE = "sample-corpus";

/**
 * Hooks that wrap the sample's steps in `@ragmeter/instrumentation` spans: the retrieval span
 * (query, ranked chunks with their document ids) and the generation span (model `extractive` for
 * the extractive answer, which runs in process).
 */
export function instrumentationHooks(rag: RagInstrumentation, topK: number, llmModel: string | null): SamplePipelineHooks {
  return {
    retrieve: (question, run) => rag.traceRetrieval({ query: question, topK, dataSourceId: SAMPLE_DATA_SOURCE }, () => run()),
    generate: (question, _contexts, run) => rag.traceGeneration({ model: llmModel ?? "extractive", question, inProcess: llmModel === null }, () => run()),
  };
}
