import { z } from "zod";
import type { JudgedMetric, JudgeRequestOf } from "../metric.js";

/** Chunks a request's passages hold text (blank ones are no context). */
const passages = (r: JudgeRequestOf) => (r.chunks ?? []).filter((c) => c.text.trim() !== "");

/** A no-LLM chunk counts as relevant in the reason when it holds at least this share of the question's terms. */
const HOLDS = 0.5;

const PROMPT = `You rate how relevant each retrieved passage is to a question, each passage on its own, as a retriever's output before any answer is written.
Scores: 0 = unrelated to the question; 1 = on the question's topic but no help in answering it; 2 = answers part of the question or gives context an answer needs; 3 = answers the question or a key part of it.
Rate every passage once, by its id, in the order given. Reply with JSON only: {"passages": [{"id": "<passage id>", "score": <0-3>}]}.`;

const reply = z.object({ passages: z.array(z.object({ id: z.string(), score: z.number().int().min(0).max(3) })) });

/**
 * `context_relevance` (the RAG triad's third leg, next to grounding and relevance): whether the
 * retrieved chunks are relevant to the question, judged per chunk and averaged per answer, in [0, 1].
 * No-LLM form: each chunk's share of the question's content terms (stems, numbers); LLM form: each
 * chunk scored 0–3, over 3. Needs the question and the retrieved texts, not the answer: it applies to
 * live traffic and to answers that were never generated.
 */
export const CONTEXT_RELEVANCE: JudgedMetric = {
  name: "context_relevance",
  kind: "judged",
  task: "context_relevance",
  needs: ["question", "chunks"],
  live: true,
  optional: false,
  label: "context rel.",
  headline: false,
  byTag: true,
  trend: true,
  color: "#e377c2",
  request: (i) => ({ question: i.question, chunks: i.chunks }),
  unjudged: (r) => (passages(r).length === 0 ? "no retrieved chunk with text" : null),
  forms: {
    heuristicRules: `context_relevance v2: per chunk with text, the share of the question's content terms (stems, numbers) it holds, a chunk's terms read sentence by sentence; the mean over chunks; a chunk holds the question at ${HOLDS}`,
    heuristic(request, tools) {
      const q = tools.terms(request.question);
      if (q.size === 0) return { status: "not_applicable", value: null, reason: "the question has no content terms" };
      const chunks = passages(request).map((c) => {
        const t = tools.passageTerms(c.text);
        let n = 0;
        for (const x of q) if (t.has(x)) n++;
        return { id: c.id, value: n / q.size };
      });
      const value = chunks.reduce((a, c) => a + c.value, 0) / chunks.length;
      const holding = chunks.filter((c) => c.value >= HOLDS).length;
      return { status: "ok", value, chunks, reason: `${holding} of ${chunks.length} chunks hold at least half of the question's ${q.size} terms` };
    },
    llm: {
      prompt: PROMPT,
      user: (r) =>
        `Question: ${r.question}\n\nPassages:\n${passages(r)
          .map((c) => `[${c.id}]\n${c.text}`)
          .join("\n\n")}`,
      reply,
      replyTokens: (r) => 24 + 16 * passages(r).length,
      judgment(v: z.infer<typeof reply>, r) {
        const ids = passages(r).map((c) => c.id);
        const score = new Map(v.passages.map((p) => [p.id, p.score] as const));
        const missing = ids.filter((id) => !score.has(id));
        if (missing.length > 0 || v.passages.length !== ids.length) {
          return {
            status: "judge_error",
            value: null,
            reason: `the reply scored ${v.passages.length} passages for ${ids.length} sent (missing: ${missing.slice(0, 3).join(", ") || "none"})`,
          };
        }
        const chunks = ids.map((id) => ({ id, value: (score.get(id) as number) / 3 }));
        return { status: "ok", value: chunks.reduce((a, c) => a + c.value, 0) / chunks.length, chunks };
      },
    },
  },
};
