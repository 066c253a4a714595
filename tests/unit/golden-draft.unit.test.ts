// `ragmeter golden draft` (issue 37), the parts without a store or an LLM: merging near-duplicate
// questions, spreading a sample over services and time, passages of documents, the expected
// substring of a proposal, and the review file a person confirms.
import { parseGoldenSet } from "@ragmeter/golden";
import { describe, expect, it } from "vitest";
import { passagesOf, spreadPassages } from "../../scorer/src/runs/draft/documents.js";
import { expectedSubstring, markupFree } from "../../scorer/src/runs/draft/fromDocs.js";
import { draftFromTraffic, mergeQuestions, spreadSample } from "../../scorer/src/runs/draft/fromTraffic.js";
import { draftFileText } from "../../scorer/src/runs/draft/reviewFile.js";
import type { TrafficQuestion } from "../../store/src/traffic.js";

const q = (n: number, service: string, question: string, at: number): TrafficQuestion => ({
  trace_id: `${String(n).padStart(2, "0")}`.repeat(16),
  service_name: service,
  at,
  question,
  answer: "An answer.",
  retrieved: [{ id: `doc${n}.md#0`, document_id: `doc${n}.md`, text: `Short. The fact number ${n} is stated here in full. Another one.`, score: 1 }],
});

describe("mergeQuestions", () => {
  it("merges the same text and word-set Jaccard ≥ 0.7, keeping the latest", () => {
    // {how, do, i, reset, my, password} vs {how, do, i, reset, the, password}: 5 / 7 = 0.714 → merged
    // {how, can, i, reset, my, password}: vs the first 5 / 7 → merged
    // {where, is, the, invoice}: alone
    const groups = mergeQuestions([
      q(1, "a", "How do I reset my password?", 10),
      q(2, "a", "how do i reset the password", 20),
      q(3, "b", "How can I reset my password", 30),
      q(4, "b", "Where is the invoice?", 40),
      q(5, "a", "HOW DO I RESET MY PASSWORD?", 50),
    ]);
    expect(groups.map((g) => [g.kept.question, g.asked, g.first, g.last])).toEqual([
      ["HOW DO I RESET MY PASSWORD?", 4, 10, 50],
      ["Where is the invoice?", 1, 40, 40],
    ]);
  });

  it("keeps apart questions below the threshold ({a,b,c,d} vs {a,b,c,e}: 3/5 = 0.6)", () => {
    expect(mergeQuestions([q(1, "a", "alpha beta gamma delta", 1), q(2, "a", "alpha beta gamma epsilon", 2)])).toHaveLength(2);
  });
});

describe("spreadSample", () => {
  const groups = mergeQuestions([
    ...Array.from({ length: 9 }, (_, i) => q(i, "big", `alpha${i} beta${i} gamma${i}?`, i * 100)),
    q(20, "small", "the only question of the small service", 450),
  ]);

  it("gives each service its turn and spreads a service's picks over its time order", () => {
    const s = spreadSample(groups, 4);
    // small has 1 group: 1; big gets 3 of its 9, the middles of 3 equal slices: indices 1, 4, 7
    expect(s.map((g) => [g.kept.service_name, g.kept.at])).toEqual([
      ["big", 100],
      ["big", 400],
      ["small", 450],
      ["big", 700],
    ]);
  });

  it("takes everything when n is larger than the groups", () => {
    expect(spreadSample(groups, 50)).toHaveLength(10);
  });
});

describe("draftFromTraffic", () => {
  it("writes a review file that loads as a golden set, every item unconfirmed, no near-duplicate pair", async () => {
    const d = draftFromTraffic([q(1, "a", "How do I reset my password?", 10), q(2, "a", "how do i reset the password", 20), q(3, "b", "Where is the invoice?", 30)], 10);
    expect(d).toMatchObject({ read: 3, groups: 2, services: ["a", "b"] });
    expect(d.items.map((i) => i.line)).toEqual([
      {
        id: `traffic-${"02".repeat(6)}`,
        question: "how do i reset the password",
        expected_source: "doc2.md",
        expected_substring: "The fact number 2 is stated here in full.",
        tags: ["drafted:traffic", "service:a"],
        unconfirmed: true,
      },
      {
        id: `traffic-${"03".repeat(6)}`,
        question: "Where is the invoice?",
        expected_source: "doc3.md",
        expected_substring: "The fact number 3 is stated here in full.",
        tags: ["drafted:traffic", "service:b"],
        unconfirmed: true,
      },
    ]);
    expect(d.items[0]?.note).toContain("asked 2× in near-identical words, 1970-01-01T00:00:00Z – 1970-01-01T00:00:00Z");
    const text = draftFileText(["header"], d.items);
    expect(text.split("\n")[0]).toBe("// header");
    const set = await parseGoldenSet(text, "draft.jsonl");
    expect(set.items.map((i) => [i.id, i.unconfirmed])).toEqual([
      [`traffic-${"02".repeat(6)}`, true],
      [`traffic-${"03".repeat(6)}`, true],
    ]);
  });
});

describe("documents", () => {
  const para = (s: string, n: number): string => `${s} `.repeat(n).trim();

  it("are cut into passages of whole paragraphs up to 1,200 characters, short ones dropped", () => {
    const a = para("alpha words here.", 40); // 17×40 + 39 = 719 characters
    const b = para("beta words.", 50); // 11×50 + 49 = 599
    const c = "tiny.";
    const ps = passagesOf({ id: "d.md", text: `${a}\n\n${b}\n\n  \n${c}` });
    // a alone (719 + 599 > 1,200), then b + c (599 + 2 + 5 = 606)
    expect(ps.map((p) => [p.index, p.text.length])).toEqual([
      [0, 719],
      [1, 606],
    ]);
    expect(passagesOf({ id: "e.md", text: "too short to ask about" })).toEqual([]);
  });

  it("are spread: documents take turns in id order; a last partial round takes documents evenly", () => {
    const long = (tag: string): string => `${para(`${tag} one.`, 100)}\n\n${para(`${tag} two.`, 100)}`;
    const ps = spreadPassages(
      [
        { id: "b.md", text: long("b") },
        { id: "a.md", text: long("a") },
      ],
      3,
    );
    // round 0: both; round 1 has room for 1 of 2: the middle of one slice of [a, b] is index 1
    expect(ps.map((p) => [p.documentId, p.index])).toEqual([
      ["a.md", 0],
      ["b.md", 0],
      ["b.md", 1],
    ]);
    // 3 passages of 10 one-passage documents: indices 1, 5, 8 (⌊(i + 0.5) × 10 / 3⌋)
    const ten = Array.from({ length: 10 }, (_, i) => ({ id: `d${i}.md`, text: para(`doc ${i} text.`, 20) }));
    expect(spreadPassages(ten, 3).map((p) => p.documentId)).toEqual(["d1.md", "d5.md", "d8.md"]);
  });
});

describe("markupFree", () => {
  it("keeps the longest run without Markdown markup, list and heading markers dropped", () => {
    expect(markupFree("API tokens let scripts, CI pipelines and the `nimbus` CLI act on your behalf.")).toBe("API tokens let scripts, CI pipelines and the");
    expect(markupFree("- An authenticator app that generates 6-digit codes (TOTP).")).toBe("An authenticator app that generates 6-digit codes (TOTP).");
    expect(markupFree("2. Click **Generate token** to get a new token now")).toBe("to get a new token now");
    expect(markupFree("Plain sentence stays as it is.")).toBe("Plain sentence stays as it is.");
  });
});

describe("expectedSubstring", () => {
  const passage = "Backups run every night. They are kept for 14 days. Restores take an hour.";
  const doc = `Intro.\n\n${passage}\n\nThey are kept for 14 days.`; // the second sentence occurs twice in the document

  it("is the quote when it occurs exactly once in the document", () => {
    expect(expectedSubstring({ quote: "“Restores take an hour.”", key_facts: ["an hour"] }, passage, doc)).toBe("Restores take an hour.");
  });

  it("else the passage's first sentence holding the first key fact that is unique, else null", () => {
    // the quote is not in the document; the sentence with "every night" is unique
    expect(expectedSubstring({ quote: "Backups happen nightly.", key_facts: ["every night"] }, passage, doc)).toBe("Backups run every night.");
    // "14 days" only in a sentence that occurs twice
    expect(expectedSubstring({ quote: "They are kept for 14 days.", key_facts: ["14 days"] }, passage, doc)).toBeNull();
  });

  it("takes the quote's sentence with the key fact out of a long quote, as a run without markup", () => {
    const md = "Intro.\n\nExports are free. Supported formats are `qcow2` and `raw`, both downloadable for a day.";
    const long = "Exports are free. Supported formats are `qcow2` and `raw`, both downloadable for a day.";
    // the sentence with "qcow2": runs "Supported formats are", "qcow2", "and", "raw", ", both downloadable for a day."
    expect(expectedSubstring({ quote: long, key_facts: ["qcow2"] }, long, md)).toBe("both downloadable for a day.");
  });
});
