import { describe, expect, it } from "vitest";
import { documentOf, documentsOf, incompleteJson, indexed, lastMessageText, messageText, uint } from "../../core/src/extract/values.js";

describe("indexed attributes (OpenInference, OpenLLMetry)", () => {
  it("groups by the integer index in numeric order: 10 and 11 after 9, whatever the key order", () => {
    const a: Record<string, string> = {};
    // Keys in lexicographic order, as a store sorting attribute names would return them.
    for (const i of [0, 1, 10, 11, 2, 3, 4, 5, 6, 7, 8, 9].map(String).sort()) {
      a[`retrieval.documents.${i}.document.id`] = `c${i}`;
      a[`retrieval.documents.${i}.document.content`] = `t${i}`;
    }
    const groups = indexed(a, "retrieval.documents");
    expect(groups.map((g) => g["document.id"])).toEqual(["c0", "c1", "c2", "c3", "c4", "c5", "c6", "c7", "c8", "c9", "c10", "c11"]);
    expect(groups[10]).toEqual({ "document.id": "c10", "document.content": "t10" });
  });

  it("ignores keys that only share the prefix, and non-integer indexes", () => {
    const groups = indexed(
      { "retrieval.documents.0.document.id": "a", "retrieval.documentsX.1.document.id": "b", "retrieval.documents.x.document.id": "c", "retrieval.documents.-1.document.id": "d" },
      "retrieval.documents",
    );
    expect(groups).toEqual([{ "document.id": "a" }]);
  });
});

describe("documents of any common shape", () => {
  it("reads ours, LangChain and LlamaIndex shapes; chunk id and document id stay apart", () => {
    expect(documentOf({ id: "c1", document_id: "d1", content: "x", score: 0.5 })).toEqual({ id: "c1", document_id: "d1", text: "x", score: 0.5 });
    expect(documentOf({ pageContent: "x", metadata: { source: "guide.md" } })).toEqual({ id: null, document_id: "guide.md", text: "x", score: null });
    expect(documentOf({ node: { id_: "n1", text: "x", metadata: { document_id: "d9" } }, score: 0.7 })).toEqual({ id: "n1", document_id: "d9", text: "x", score: 0.7 });
    expect(documentOf({ id: 7, documentId: "d7", text: "x", relevance_score: "0.25" })).toEqual({ id: "7", document_id: "d7", text: "x", score: 0.25 });
  });

  it("a document without content has a null text, never an empty string", () => {
    expect(documentOf({ id: "c1", score: 0.9 })).toEqual({ id: "c1", document_id: null, text: null, score: 0.9 });
  });

  it("lists: arrays, or objects holding one under a known key; anything else is not a document list", () => {
    expect(documentsOf([{ id: "a", text: "x" }])?.map((d) => d.id)).toEqual(["a"]);
    expect(documentsOf({ results: [{ id: "a", text: "x" }] })?.map((d) => d.id)).toEqual(["a"]);
    expect(documentsOf({ documents: [] })).toEqual([]);
    expect(documentsOf([{ foo: 1 }])).toBeNull();
    expect(documentsOf({ answer: "x" })).toBeNull();
    expect(documentsOf("text")).toBeNull();
  });
});

describe("message text", () => {
  it("reads strings, OpenAI content parts, OTel GenAI parts and nested messages", () => {
    expect(messageText("q")).toBe("q");
    expect(messageText({ role: "user", content: [{ type: "text", text: "a" }, { type: "image_url" }, { type: "text", text: "b" }] })).toBe("ab");
    expect(messageText({ role: "user", parts: [{ type: "text", content: "q" }] })).toBe("q");
    expect(messageText({ message: { content: "m" } })).toBe("m");
    expect(messageText({ role: "assistant", parts: [{ type: "tool_call", name: "f" }] })).toBeNull();
    expect(
      lastMessageText(
        [
          { role: "user", content: "first" },
          { role: "assistant", content: "x" },
          { role: "USER", content: "second" },
        ],
        "user",
      ),
    ).toBe("second");
  });
});

describe("one normaliser for every convention (issue 11)", () => {
  it("OpenInference document.* groups with metadata as a JSON string: id, score and source from metadata", () => {
    const d = documentOf({ "document.content": "t", "document.metadata": JSON.stringify({ id: "lc-7", score: 0.81, source: "kb/refunds.md" }) });
    expect(d).toEqual({ id: "lc-7", document_id: "kb/refunds.md", text: "t", score: 0.81 });
  });
  it("a LangChain Document without an id keeps a null id (never its position)", () => {
    expect(
      documentsOf({
        documents: [
          { pageContent: "a", metadata: {} },
          { pageContent: "b", metadata: {}, id: "x" },
        ],
      })?.map((d) => d.id),
    ).toEqual([null, "x"]);
  });
});

describe("JSON content cut off upstream", () => {
  const json = JSON.stringify([
    { id: "c1", content: "refunds within 30 days" },
    { id: "c2", content: "shipping" },
  ]);
  it("a cut JSON string is incomplete, naming the attribute; whole JSON and plain text are not", () => {
    expect(incompleteJson(json.slice(0, 40), "gen_ai.retrieval.documents")?.attribute).toBe("gen_ai.retrieval.documents");
    expect(incompleteJson(json.slice(0, 40), "gen_ai.retrieval.documents")?.reason).toMatch(/^gen_ai\.retrieval\.documents is not valid JSON \(40 characters/);
    expect(incompleteJson(json, "gen_ai.retrieval.documents")).toBeNull();
    expect(incompleteJson("plain text", "output.value")).toBeNull();
  });
  it("JSON that parses but reaches the declared attribute length limit is visibly capped", () => {
    expect(incompleteJson(json, "gen_ai.retrieval.documents", json.length)?.reason).toBe(
      `gen_ai.retrieval.documents reaches the attribute length limit ${json.length}: its content may be capped`,
    );
    expect(incompleteJson(json, "gen_ai.retrieval.documents", json.length + 1)).toBeNull();
  });
  it("the limit counts characters, not UTF-16 units: 20 emoji are 20 characters in 40 units", () => {
    const emoji = JSON.stringify(["🦊".repeat(20)]); // ["…"]: 4 + 20 characters, 4 + 40 units
    expect(emoji.length).toBe(44);
    expect(incompleteJson(emoji, "gen_ai.retrieval.documents", 25)).toBeNull();
    expect(incompleteJson(emoji, "gen_ai.retrieval.documents", 24)?.reason).toMatch(/reaches the attribute length limit 24/);
    expect(incompleteJson(emoji.slice(0, 30), "gen_ai.retrieval.documents")?.reason).toMatch(/not valid JSON \(16 characters/); // `["` and 14 emoji
  });
});

describe("exact 64-bit integers", () => {
  it("decimal strings above 2^53 stay exact; safe numbers become their decimal; negatives and floats are not counts", () => {
    expect(uint({ t: "9007199254740993" }, "t")).toBe("9007199254740993");
    expect(uint({ t: "9223372036854775807" }, "t")).toBe((2n ** 63n - 1n).toString());
    expect(uint({ t: 321 }, "t")).toBe("321");
    expect(uint({ t: -1 }, "t")).toBeNull();
    expect(uint({ t: 1.5 }, "t")).toBeNull();
    expect(uint({ t: "18446744073709551616" }, "t")).toBeNull(); // 2^64 does not fit UInt64
  });
});
