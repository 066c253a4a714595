// `ragmeter init`'s mapping of a reply onto answer, contexts and token usage (issue 37): each reply
// below is shaped as a framework or service really answers, and the expected paths are read off
// the JSON by hand. Every proposed config is then read back through eval's own mapping.
import { describe, expect, it } from "vitest";
import { targetConfigOf } from "../../scorer/src/runs/onboard/files.js";
import { planInit } from "../../scorer/src/runs/onboard/init.js";
import { candidateBodies, fillBody, questionField, wrappedBodies } from "../../scorer/src/runs/onboard/probe.js";
import { missingFields } from "../../scorer/src/runs/onboard/refusal.js";
import { jsonPath, proposeMapping } from "../../scorer/src/runs/onboard/replyShape.js";
import { mapTargetReply } from "../../scorer/src/runs/targetConfig.js";

const mapped = (reply: unknown) => {
  const r = proposeMapping(reply);
  if (!r.ok) throw new Error(r.reason);
  return r.mapping;
};

describe("proposeMapping", () => {
  it("reads ragmeter's own contract as it is", () => {
    const m = mapped({
      answer: "Port 5432 is where managed Postgres listens.",
      contexts: [
        { id: "pg#1", document_id: "postgres.md", text: "Managed Postgres listens on port 5432 by default.", score: 0.9 },
        { id: "pg#2", document_id: "postgres.md", text: "Connections need TLS from version two onwards.", score: 0.4 },
      ],
    });
    expect(m.answer.path).toBe("$.answer");
    expect(m.contexts).toEqual({ path: "$.contexts[*]", count: 2, id: "$.id", document_id: "$.document_id", text: "$.text", score: "$.score" });
    expect(m.usage).toEqual({ input_tokens: null, output_tokens: null });
  });

  it("reads a LlamaIndex Response (response, source_nodes[].node.{id_, text, metadata.file_name}, score)", () => {
    const reply = {
      response: "The grace period lasts 72 hours after the balance reaches zero.",
      source_nodes: [
        { node: { id_: "a1", text: "Your resources keep running during a grace period of 72 hours.", metadata: { file_name: "billing.md" } }, score: 0.81 },
        { node: { id_: "b2", text: "Invoices are sent on the first day of every month.", metadata: { file_name: "invoices.md" } }, score: 0.42 },
      ],
      metadata: { a1: { file_name: "billing.md" } },
    };
    const m = mapped(reply);
    expect(m.answer.path).toBe("$.response");
    expect(m.contexts).toEqual({ path: "$.source_nodes[*]", count: 2, id: "$.node.id_", document_id: "$.node.metadata.file_name", text: "$.node.text", score: "$.score" });
    const c = m.contexts;
    if (c === null) throw new Error("no contexts");
    const read = mapTargetReply(targetConfigOf("http://x/ask", { query: "{{question}}" }, { ...m, contexts: c }), reply);
    expect(read.contexts.map((x) => [x.id, x.document_id, x.score])).toEqual([
      ["a1", "billing.md", 0.81],
      ["b2", "invoices.md", 0.42],
    ]);
  });

  it("reads a LangChain retrieval chain (answer, context[].{id, page_content, metadata.source}) and OpenAI-style usage", () => {
    const reply = {
      input: "how long is the grace period?",
      answer: "It lasts 72 hours, then resources stop.",
      context: [
        { id: null, metadata: { source: "docs/billing.md", chunk: 3 }, page_content: "During a grace period of 72 hours your resources keep running." },
        { id: null, metadata: { source: "docs/limits.md", chunk: 0 }, page_content: "Each project can have at most ten databases at a time." },
      ],
      usage: { prompt_tokens: 812, completion_tokens: 23, total_tokens: 835 },
    };
    const m = mapped(reply);
    expect(m.answer.path).toBe("$.answer");
    // id is null in every context: the chunk number is the id, the source the document
    expect(m.contexts).toEqual({ path: "$.context[*]", count: 2, id: "$.metadata.chunk", document_id: "$.metadata.source", text: "$.page_content", score: null });
    expect(m.usage).toEqual({ input_tokens: "$.usage.prompt_tokens", output_tokens: "$.usage.completion_tokens" });
  });

  it("reads a hand-written service's reply (result, sources[].{chunk, file, content, relevance}): file is the document id", () => {
    // the reply of a small http.server RAG service written following the README as a new user
    const reply = {
      result: "We email a reset link that stays valid for 45 minutes.",
      sources: [
        { chunk: "account/password.md#0", file: "account/password.md", content: "Open the sign-in page and choose Forgot password. We email a reset link.", relevance: 11.09 },
        { chunk: "account/delete.md#1", file: "account/delete.md", content: "Invoices are kept for ten years because the law requires it.", relevance: 2.5 },
      ],
      model: "extractive-1",
    };
    const m = mapped(reply);
    expect(m.answer.path).toBe("$.result");
    expect(m.contexts).toEqual({ path: "$.sources[*]", count: 2, id: "$.chunk", document_id: "$.file", text: "$.content", score: "$.relevance" });
  });

  it("takes the document id as id when the contexts carry no id of their own", () => {
    const m = mapped({ answer: "It lasts 72 hours, then resources stop.", context: [{ metadata: { source: "a.md" }, page_content: "A grace period of 72 hours applies." }] });
    expect(m.contexts).toMatchObject({ id: "$.metadata.source", document_id: null });
  });

  it("finds the answer by length when no field is named like one, and odd keys in brackets", () => {
    const m = mapped({
      "the result": { generated: "A prepaid balance pays for resources as they run, by the hour." },
      hits: [{ "chunk-id": "c1", doc: "billing.md", body: "Nimbusfield Cloud uses a prepaid balance for everything." }],
    });
    expect(m.answer.path).toBe("$['the result'].generated");
    expect(m.contexts).toMatchObject({ path: "$.hits[*]", id: "$.doc", text: "$.body" });
  });

  it("says why when nothing reads like an answer, or contexts carry no id", () => {
    expect(proposeMapping({ status: "ok", id: "x-1" })).toEqual({
      ok: false,
      reason: "no text that looks like an answer (a string of three or more words outside the contexts); string fields: $.status, $.id",
    });
    expect(proposeMapping([1, 2])).toMatchObject({ ok: false });
    expect(proposeMapping("just a string")).toEqual({ ok: false, reason: "the reply is a JSON string, not an object" });
    expect(proposeMapping({ answer: "It is seventy two hours.", sources: [{ text: "A grace period of seventy two hours." }] })).toEqual({
      ok: false,
      reason: "the contexts at $.sources have no id-like field (id, chunk_id, node_id, document_id, source, …)",
    });
  });

  it("reads a LangServe reply of a retrieval chain (captured from tests/python/programs/langserve_app.py)", () => {
    // POST /rag/invoke {"input": {"input": question}}, the reply verbatim: the chain's {input, context, answer}
    // under "output"; metadata.document_id only on the first two documents, so metadata.source is the document
    const question = "How many days do customers have to ask for a refund?";
    const reply = JSON.parse(
      `{"output":{"input":"${question}","context":[{"id":"kb-refunds-1","metadata":{"source":"acme-kb","document_id":"refunds.md","score":0.8},"page_content":"Refunds: customers can ask for a refund within 30 days of purchase.","type":"Document"},{"id":"kb-refunds-2","metadata":{"source":"acme-kb","document_id":"refunds.md","score":0.4},"page_content":"A refund is paid back to the original card within 5 business days.","type":"Document"},{"id":"kb-shipping-1","metadata":{"source":"kb/shipping.md","score":0.2},"page_content":"Orders ship within two working days of payment.","type":"Document"}],"answer":"Customers have 30 days to ask for a refund."},"metadata":{"run_id":"2db0f80d-da02-4863-925c-e396ebbab57c","feedback_tokens":[]}}`,
    ) as { output: { input: string; answer: string } };
    const m = mapped(reply);
    expect(m.answer).toEqual({ path: "$.output.answer", value: "Customers have 30 days to ask for a refund." });
    expect(m.contexts).toEqual({ path: "$.output.context[*]", count: 3, id: "$.id", document_id: "$.metadata.source", text: "$.page_content", score: "$.metadata.score" });
    const c = m.contexts;
    if (c === null) throw new Error("no contexts");
    const read = mapTargetReply(targetConfigOf("http://x/rag/invoke", { input: { input: "{{question}}" } }, { ...m, contexts: c }), reply);
    expect(read.contexts.map((x) => [x.id, x.document_id, x.score])).toEqual([
      ["kb-refunds-1", "acme-kb", 0.8],
      ["kb-refunds-2", "acme-kb", 0.4],
      ["kb-shipping-1", "kb/shipping.md", 0.2],
    ]);
    // the echoed input is never the answer, even when it is more than three times as long as the answer
    const long = "Within how many calendar days after the purchase date may a customer still ask for a full refund of the order?";
    const echoing = { output: { ...reply.output, input: long, answer: "30 days, by email." } };
    expect(mapped(echoing).answer.path).toBe("$.output.input");
    const r = proposeMapping(echoing, { question: long });
    expect(r.ok && r.mapping.answer).toEqual({ path: "$.output.answer", value: "30 days, by email." });
  });

  it("writes JSONPath keys that need quoting in brackets", () => {
    expect(jsonPath(["a", 0, "b c", "it's"])).toBe("$.a[0]['b c']['it\\'s']");
  });
});

describe("the request bodies init tries", () => {
  it("are question first, then the common keys, then each with top_k", () => {
    const bodies = candidateBodies();
    expect(bodies).toHaveLength(14);
    expect(bodies[0]).toEqual({ question: "{{question}}" });
    expect(bodies[1]).toEqual({ query: "{{question}}" });
    expect(bodies[7]).toEqual({ question: "{{question}}", top_k: "{{k}}" });
    expect(fillBody({ query: "{{question}}", top_k: "{{k}}" }, "why?", 5)).toEqual({ query: "why?", top_k: 5 });
  });

  it("inside a field a refusal names missing: the same bodies, one level down", () => {
    const wrapped = wrappedBodies("input");
    expect(wrapped).toHaveLength(14);
    expect(wrapped[2]).toEqual({ input: { input: "{{question}}" } });
    expect(wrapped[7]).toEqual({ input: { question: "{{question}}", top_k: "{{k}}" } });
    expect(fillBody({ input: { input: "{{question}}", top_k: "{{k}}" } }, "why?", 3)).toEqual({ input: { input: "why?", top_k: 3 } });
    expect(questionField({ input: { query: "{{question}}", top_k: "{{k}}" } })).toEqual({ path: "input.query", topK: true });
    expect(questionField({ q: "{{question}}" })).toEqual({ path: "q", topK: false });
  });

  it("reads the missing fields a FastAPI/pydantic refusal names", () => {
    // LangServe's 422 to {"question": …}, verbatim
    expect(
      missingFields('{"detail":[{"type":"missing","loc":["input"],"msg":"Field required","input":{"question":"Why?"},"url":"https://errors.pydantic.dev/2.14/v/missing"}]}'),
    ).toEqual(["input"]);
    // LangServe's 422 to {"input": "…"}: a wrong type, not a missing field
    expect(
      missingFields(
        '{"detail":[{"type":"model_type","loc":[],"msg":"Input should be a valid dictionary or instance of Question","input":"Why?","ctx":{"class_name":"Question"}}]}',
      ),
    ).toEqual([]);
    // FastAPI's own body validation (pydantic 2, then pydantic 1): loc starts with "body"; a nested field is not a top-level one
    expect(
      missingFields(
        JSON.stringify({
          detail: [
            { type: "missing", loc: ["body", "data"], msg: "Field required" },
            { type: "missing", loc: ["body", "data", "query"], msg: "Field required" },
            { type: "missing", loc: ["body", "session"], msg: "Field required" },
            { type: "missing", loc: ["body", "data"], msg: "Field required" },
          ],
        }),
      ),
    ).toEqual(["data", "session"]);
    expect(missingFields('{"detail":[{"loc":["body","inputs"],"msg":"field required","type":"value_error.missing"}]}')).toEqual(["inputs"]);
    expect(missingFields("Bad Request")).toEqual([]);
    expect(missingFields('{"error":"question is required"}')).toEqual([]);
  });

  it("need exactly one of --url and --module", async () => {
    const o = { cwd: ".", question: "q", k: 5, timeoutMs: 1000, configFile: "c.json", goldenFile: "g.jsonl", workflowFile: null };
    await expect(planInit(o)).rejects.toThrow("init: give either --url URL or --module FILE");
    await expect(planInit({ ...o, url: "http://x", module: "m.js" })).rejects.toThrow("init: give either --url URL or --module FILE");
  });
});
