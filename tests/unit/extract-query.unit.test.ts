import { describe, expect, it } from "vitest";
import { dspyAnswer } from "../../core/src/extract/dspy.js";
import { queryReading } from "../../core/src/extract/query.js";
import { documentOf, documentsOf } from "../../core/src/extract/values.js";

describe("the query in an instrumentation's recorded input", () => {
  it("under a key that names it, at any depth: LangChain retriever {query}, LlamaIndex {str_or_query_bundle: {query_str}}, runnable {inputs}, decorator {args}", () => {
    const q = "How many days?";
    expect(queryReading(JSON.stringify({ query: q, tags: [], metadata: {}, kwargs: { name: "KeywordRetriever" } }))).toEqual({ text: q, guess: null });
    expect(queryReading(JSON.stringify({ str_or_query_bundle: { query_str: q, image_path: null, embedding: null } }))).toEqual({ text: q, guess: null });
    expect(queryReading({ query_bundle: { query_str: q } })).toEqual({ text: q, guess: null });
    expect(queryReading(JSON.stringify({ inputs: q, tags: ["seq:step:1"], kwargs: { name: "RunnableSequence" } }))).toEqual({ text: q, guess: null });
    expect(queryReading({ args: [q], kwargs: {} })).toEqual({ text: q, guess: null });
    expect(queryReading({ args: [], kwargs: { question: q } })).toEqual({ text: q, guess: null });
    expect(queryReading(q)).toEqual({ text: q, guess: null });
  });

  it("never a class name, tag or setting; another text field is a guess naming the field; nothing → null", () => {
    expect(queryReading({ tags: ["x"], metadata: {}, kwargs: { name: "KeywordRetriever" } })).toBeNull();
    expect(queryReading({ text: "some text", kwargs: { name: "KeywordRetriever" } })).toEqual({
      text: "some text",
      guess: "the first text field (text) of an input without a query key",
    });
    expect(queryReading("")).toBeNull();
  });
});

describe("documents in the shapes Python instrumentations record", () => {
  it("OpenLLMetry's LlamaIndex nodes as JSON strings: node id, text, score; document id from metadata, else the source node (relationship 1)", () => {
    const node = (id: string, text: string, score: number, metadata: Record<string, string>, source: string) =>
      JSON.stringify({ node: { id_: id, metadata, relationships: { "1": { node_id: source, class_name: "RelatedNodeInfo" } }, text }, score });
    expect(documentsOf([node("n1", "t1", 0.8, { document_id: "refunds.md", source: "acme-kb" }, "x"), node("n2", "t2", 0.4, {}, "guide.md")])).toEqual([
      { id: "n1", document_id: "refunds.md", text: "t1", score: 0.8 },
      { id: "n2", document_id: "guide.md", text: "t2", score: 0.4 },
    ]);
  });

  it("LangChain's serialized Document {lc, type: constructor, kwargs}; an explicit document id wins over metadata.source", () => {
    const doc = {
      lc: 1,
      type: "constructor",
      id: ["langchain", "schema", "document", "Document"],
      kwargs: { id: "c1", metadata: { source: "acme-kb", document_id: "refunds.md" }, page_content: "t" },
    };
    expect(documentOf(doc)).toEqual({ id: "c1", document_id: "refunds.md", text: "t", score: null });
    expect(documentOf({ page_content: "t", metadata: { source: "kb/shipping.md" } })).toEqual({ id: null, document_id: "kb/shipping.md", text: "t", score: null });
  });

  it("a Python repr is no document: OpenInference's LlamaIndex output.value of '<NodeWithScore(…)>' strings is not a document list", () => {
    expect(documentOf("<NodeWithScore(node=TextNode(id_=kb-refunds-1), score=0.8)>")).toBeNull();
    expect(documentsOf(["<NodeWithScore(node=TextNode(id_=a), score=0.8)>"])).toBeNull();
    expect(documentOf("<b>bold</b> text")).toEqual({ id: null, document_id: null, text: "<b>bold</b> text", score: null });
  });
});

describe("DSPy's ChatAdapter reply", () => {
  it("the one output field besides reasoning is the answer; several, or another form, give null", () => {
    expect(dspyAnswer("[[ ## response ## ]]\n30 days.\n\n[[ ## completed ## ]]")).toBe("30 days.");
    expect(dspyAnswer("[[ ## reasoning ## ]]\nThe policy says 30.\n\n[[ ## answer ## ]]\n30 days.\n\n[[ ## completed ## ]]")).toBe("30 days.");
    expect(dspyAnswer("[[ ## answer ## ]]\n30\n\n[[ ## confidence ## ]]\nhigh\n\n[[ ## completed ## ]]")).toBeNull();
    expect(dspyAnswer("Customers have 30 days.")).toBeNull();
    expect(dspyAnswer(null)).toBeNull();
  });
});
