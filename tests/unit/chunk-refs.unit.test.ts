import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { chunkHash } from "../../core/src/domain/chunkHash.js";
import { attachChunkTexts, detachChunkTexts } from "../../core/src/domain/chunkRefs.js";
import type { Attrs } from "../../core/src/domain/spans.js";

// The hash computed independently of chunkHash: SHA-256 hex, first 32 digits.
const sha = (t: string): string => createHash("sha256").update(t, "utf8").digest("hex").slice(0, 32);
const long = (s: string): string => `${s} `.repeat(Math.ceil(70 / (s.length + 1))).trim();

describe("chunk references in stored spans (design §6, spans.chunk_hashes)", () => {
  it("OpenInference document contents become references in place (key order kept), short texts stay, and putting them back gives the same attributes", () => {
    const a = long("Refunds are possible within 30 days of the payment.");
    const b = long("Gift cards cannot be refunded, ever — даже частично.");
    const attrs: Attrs = {
      "openinference.span.kind": "RETRIEVER",
      "retrieval.documents.0.document.id": "kb/1",
      "retrieval.documents.0.document.content": a,
      "retrieval.documents.0.document.metadata": '{"document_id":"faq.md"}',
      "retrieval.documents.1.document.id": "kb/2",
      "retrieval.documents.1.document.content": b,
      "retrieval.documents.2.document.content": "short text",
      "retrieval.documents.3.document.content": a,
      "reranker.output_documents.0.document.content": b,
      "input.value": a,
    };
    const d = detachChunkTexts(attrs, chunkHash);
    expect(d?.attributes).toEqual({
      ...attrs,
      // By index into the span's chunk_hashes (the texts' hashes in the order first met).
      "retrieval.documents.0.document.content": "ragmeter.chunk_ref:#0",
      "retrieval.documents.1.document.content": "ragmeter.chunk_ref:#1",
      "retrieval.documents.3.document.content": "ragmeter.chunk_ref:#0",
      "reranker.output_documents.0.document.content": "ragmeter.chunk_ref:#1",
    });
    expect(Object.keys(d?.attributes ?? {})).toEqual(Object.keys(attrs));
    expect([...(d?.texts ?? [])]).toEqual([
      [sha(a), { text: a, document_id: "faq.md" }],
      [sha(b), { text: b, document_id: "kb/2" }],
    ]);
    const back = attachChunkTexts(d?.attributes ?? {}, new Map([...(d?.texts ?? [])].map(([h, c]) => [h, c.text])), [...(d?.texts.keys() ?? [])]);
    expect(JSON.stringify(back)).toBe(JSON.stringify(attrs));
  });

  it("spans stored before hold references by hash: they read as they did", () => {
    const a = long("Refunds are possible within 30 days of the payment.");
    const b = long("Gift cards cannot be refunded, ever — даже частично.");
    const stored: Attrs = {
      "retrieval.documents.0.document.content": `ragmeter.chunk_ref:${sha(a)}`,
      "retrieval.documents.1.document.content": `ragmeter.chunk_ref:${sha(b)}`,
      "gen_ai.retrieval.documents": JSON.stringify([{ content: `ragmeter.chunk_ref:${sha(b)}` }, { content: `ragmeter.chunk_ref:${sha(a)}` }]),
    };
    expect(
      attachChunkTexts(
        stored,
        new Map([
          [sha(a), a],
          [sha(b), b],
        ]),
        [sha(a), sha(b)],
      ),
    ).toEqual({
      "retrieval.documents.0.document.content": a,
      "retrieval.documents.1.document.content": b,
      "gen_ai.retrieval.documents": JSON.stringify([{ content: b }, { content: a }]),
    });
  });

  it("GenAI document lists: the text's JSON literal becomes the reference's, exactly reversible; a text written with other escapes stays inline", () => {
    const a = long('He said "no" and left\\ the shop; ü');
    const docs = JSON.stringify([
      { id: "c1", content: a, score: 0.9, document_id: "d1" },
      { id: "c2", content: "tiny" },
    ]);
    const d = detachChunkTexts({ "gen_ai.retrieval.documents": docs, "gen_ai.operation.name": "retrieval" }, chunkHash);
    const stored = d?.attributes["gen_ai.retrieval.documents"] as string;
    expect(JSON.parse(stored)).toEqual([
      { id: "c1", content: "ragmeter.chunk_ref:#0", score: 0.9, document_id: "d1" },
      { id: "c2", content: "tiny" },
    ]);
    expect([...(d?.texts ?? [])]).toEqual([[sha(a), { text: a, document_id: "d1" }]]);
    expect(attachChunkTexts(d?.attributes ?? {}, new Map([[sha(a), a]]), [sha(a)])).toEqual({ "gen_ai.retrieval.documents": docs, "gen_ai.operation.name": "retrieval" });
    // \u00fc instead of ü: JSON.stringify would not write it so; not found, the value is kept as it is
    const escaped = docs.replaceAll("ü", "\\u00fc");
    expect(detachChunkTexts({ "gen_ai.retrieval.documents": escaped }, chunkHash)).toBeNull();
  });

  it("a span whose text attributes already hold the reference prefix, or hold nothing long enough, is stored whole", () => {
    const a = long("A perfectly ordinary retrieved passage of some length.");
    expect(
      detachChunkTexts(
        { "retrieval.documents.0.document.content": a, "retrieval.documents.1.document.content": "see ragmeter.chunk_ref:0123456789abcdef0123456789abcdef" },
        chunkHash,
      ),
    ).toBeNull();
    expect(detachChunkTexts({ "retrieval.documents.0.document.content": "", "output.value": a, "retrieval.documents.1.document.content": 42 }, chunkHash)).toBeNull();
  });

  it("a chunk no longer stored reads as a blank text; other values are untouched", () => {
    const h = sha("gone");
    const stored: Attrs = {
      "retrieval.documents.0.document.content": `ragmeter.chunk_ref:${h}`,
      "retrieval.documents.1.document.content": "ragmeter.chunk_ref:#0",
      "gen_ai.retrieval.documents": `[{"content":"ragmeter.chunk_ref:${h}"},{"content":"ragmeter.chunk_ref:#0"}]`,
      other: `ragmeter.chunk_ref:${h}`,
    };
    expect(attachChunkTexts(stored, new Map(), [h])).toEqual({
      "retrieval.documents.0.document.content": "",
      "retrieval.documents.1.document.content": "",
      "gen_ai.retrieval.documents": '[{"content":""},{"content":""}]',
      other: `ragmeter.chunk_ref:${h}`,
    });
  });
});
