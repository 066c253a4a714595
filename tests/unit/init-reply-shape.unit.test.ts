// `ragmeter init`'s mapping of a reply onto answer, contexts and token usage (issue 37): each reply
// below is shaped as a framework or service really answers, and the expected paths are read off
// the JSON by hand. Every proposed config is then read back through eval's own mapping.
import { describe, expect, it } from "vitest";
import { targetConfigOf } from "../../scorer/src/runs/onboard/files.js";
import { planInit } from "../../scorer/src/runs/onboard/init.js";
import { candidateBodies, fillBody } from "../../scorer/src/runs/onboard/probe.js";
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

  it("need exactly one of --url and --module", async () => {
    const o = { cwd: ".", question: "q", k: 5, timeoutMs: 1000, configFile: "c.json", goldenFile: "g.jsonl", workflowFile: null };
    await expect(planInit(o)).rejects.toThrow("init: give either --url URL or --module FILE");
    await expect(planInit({ ...o, url: "http://x", module: "m.js" })).rejects.toThrow("init: give either --url URL or --module FILE");
  });
});
