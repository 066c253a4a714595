import { describe, expect, it } from "vitest";
import { documentOf, documentsOf, indexed, lastMessageText, messageText } from "../../scorer/src/extract/values.js";

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
    expect(documentOf({ id: "c1", document_id: "d1", content: "x", score: 0.5 }, 0)).toEqual({ id: "c1", document_id: "d1", text: "x", score: 0.5 });
    expect(documentOf({ pageContent: "x", metadata: { source: "guide.md" } }, 3)).toEqual({ id: "3", document_id: "guide.md", text: "x", score: null });
    expect(documentOf({ node: { id_: "n1", text: "x", metadata: { document_id: "d9" } }, score: 0.7 }, 0)).toEqual({ id: "n1", document_id: "d9", text: "x", score: 0.7 });
    expect(documentOf({ id: 7, documentId: "d7", text: "x", relevance_score: "0.25" }, 0)).toEqual({ id: "7", document_id: "d7", text: "x", score: 0.25 });
  });

  it("a document without content has a null text, never an empty string", () => {
    expect(documentOf({ id: "c1", score: 0.9 }, 0)).toEqual({ id: "c1", document_id: null, text: null, score: 0.9 });
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
