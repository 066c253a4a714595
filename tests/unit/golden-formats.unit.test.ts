import { readFile } from "node:fs/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { SAMPLE_CORPUS_DIR, SAMPLE_GOLDEN_FILE } from "../../examples/sample-rag/src/index.js";
import {
  CSV_COLUMNS,
  countMatchModes,
  deriveGoldenId,
  detectGoldenFormat,
  type GoldenItem,
  GoldenSetError,
  goldenSetHash,
  isAnswerable,
  loadGoldenSet,
  matchMode,
  normalizeText,
  parseGoldenSet,
} from "../../golden/src/index.js";

const FIXTURES = path.join(path.dirname(fileURLToPath(import.meta.url)), "..", "fixtures", "golden");
const JSONL = path.join(FIXTURES, "forms.jsonl");
const CSV = path.join(FIXTURES, "forms.csv");

/** Hash of the bundled sample before CSV, optional ids and chunk ids existed: stored runs refer to it. */
const SAMPLE_HASH = "e1f38e953187e6a2f13f2977c0a1a7b7b65f3820e927b2861072bdde21ad720f";

const errorOf = async (p: Promise<unknown>): Promise<GoldenSetError> => {
  const err = await p.then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(GoldenSetError);
  return err as GoldenSetError;
};

/** Writes items as CSV the way a spreadsheet would: every cell quoted, lists as `;` or JSON. */
function toCsv(items: readonly Record<string, unknown>[], lists: "semicolon" | "json"): string {
  const cols = CSV_COLUMNS;
  const cell = (v: unknown): string => {
    if (v === null || v === undefined) return "";
    const s = Array.isArray(v) ? (lists === "json" || v.some((x) => String(x).includes(";")) ? JSON.stringify(v) : v.join(";")) : String(v);
    return `"${s.replace(/"/gu, '""')}"`;
  };
  return `${[cols.join(","), ...items.map((it) => cols.map((c) => cell(it[c])).join(","))].join("\r\n")}\r\n`;
}

describe("JSONL and CSV forms (issue 12)", () => {
  it("the hand-written JSONL and CSV fixtures give the same items and the same hash", async () => {
    const j = await loadGoldenSet(JSONL);
    const c = await loadGoldenSet(CSV);
    expect(j.format).toBe("jsonl");
    expect(c.format).toBe("csv");
    expect(c.items).toEqual(j.items);
    expect(c.sha256).toBe(j.sha256);
    expect(c.notices).toEqual(j.notices);
    expect(j.items.map((i) => i.id)).toEqual(["s1", "d1", "q-ad38808830a2", "q-02e9704a1811", "m1"]);
    const m1 = j.items[4] as GoldenItem;
    expect(m1).toEqual({
      id: "m1",
      question: 'Which ports, "exactly", must be open?',
      expected_source: "networking/firewall.md",
      expected_substring: "ports 80, 443",
      expected_chunk_id: null,
      expected_lines: null,
      reference_answer: "Ports 80 and 443.\nBoth TCP.",
      key_facts: ["80; 443", "TCP"],
      tags: ["topic:networking"],
    });
    expect(j.items[0]?.key_facts).toEqual(["Spark S1", "€4.90"]);
    expect(j.items[0]?.tags).toEqual(["topic:servers", "numeric"]);
  });

  it("the method's two forms load: chunk id without id, and id + question + source + reference answer", async () => {
    const s = await parseGoldenSet(
      [
        '{"question": "How do I renew a certificate?", "expected_chunk_id": "docs/ssl-setup.md#chunk-14"}',
        '{"id": "d1", "question": "Where is SSL set up?", "expected_source": "docs/ssl-setup.md", "reference_answer": "In the guide."}',
      ].join("\n"),
      "method.jsonl",
    );
    expect(s.items[0]).toMatchObject({ id: "q-ad38808830a2", expected_chunk_id: "docs/ssl-setup.md#chunk-14", expected_source: null, expected_substring: null });
    expect(s.items[1]).toMatchObject({ id: "d1", expected_source: "docs/ssl-setup.md", expected_substring: null, expected_chunk_id: null, reference_answer: "In the guide." });
    expect(s.items.map(matchMode)).toEqual(["chunk_id", "document"]);
  });

  it("a UTF-8 BOM is ignored in CSV and JSONL; CRLF line ends change nothing", async () => {
    const jText = await readFile(JSONL, "utf8");
    const cText = await readFile(CSV, "utf8");
    const base = (await parseGoldenSet(jText, "a.jsonl")).sha256;
    const variants = [
      await parseGoldenSet(`\uFEFF${jText}`, "bom.jsonl"),
      await parseGoldenSet(`\uFEFF${cText}`, "bom.csv"),
      await parseGoldenSet(cText.replace(/\n/gu, "\r\n"), "crlf.csv"),
      await parseGoldenSet(`\uFEFF${cText.replace(/\n/gu, "\r\n")}`, "bom-crlf.csv"),
      await parseGoldenSet(jText.replace(/\n/gu, "\r\n"), "crlf.jsonl"),
    ];
    for (const v of variants) expect(v.sha256, v.path).toBe(base);
    // A quoted newline in a CRLF file stays a newline of the cell, as in the LF file.
    expect(variants[2]?.items[4]?.reference_answer).toBe("Ports 80 and 443.\r\nBoth TCP.");
    // The BOM does not end up in the first header name nor in the first JSON line.
    expect((await parseGoldenSet('\uFEFFquestion\n"Is it?"\n', "b.csv")).items[0]?.question).toBe("Is it?");
    expect((await parseGoldenSet('\uFEFF{"id":"x","question":"Is it?"}', "b.jsonl")).items[0]?.id).toBe("x");
  });

  it("key_facts and tags as ;-separated cells or JSON-array cells give the same items", async () => {
    const head = "id,question,expected_source,expected_substring,key_facts,tags";
    const semi = await parseGoldenSet(`${head}\na,Q?,d.md,x,"Spark S1; €4.90 ;",t1;t2\n`, "semi.csv");
    const json = await parseGoldenSet(`${head}\na,Q?,d.md,x,"[""Spark S1"",""€4.90""]","[""t1"", ""t2""]"\n`, "json.csv");
    const jsonl = await parseGoldenSet(
      '{"id":"a","question":"Q?","expected_source":"d.md","expected_substring":"x","key_facts":["Spark S1","€4.90"],"tags":["t1","t2"]}',
      "j.jsonl",
    );
    expect(semi.items).toEqual(jsonl.items);
    expect(json.items).toEqual(jsonl.items);
    expect(semi.sha256).toBe(jsonl.sha256);
    // Empty list cells: no key facts (not_applicable), no tags.
    const empty = await parseGoldenSet(`${head}\na,Q?,d.md,x,[],\n`, "e.csv");
    expect(empty.items[0]).toMatchObject({ key_facts: null, tags: [] });
  });

  it("header names ignore case, spaces and order; missing trailing cells are empty", async () => {
    const s = await parseGoldenSet(" Question , ID ,Expected_Source\nQ?,a\n", "h.csv");
    expect(s.items[0]).toMatchObject({ id: "a", question: "Q?", expected_source: null });
    expect(matchMode(s.items[0] as GoldenItem)).toBe("unanswerable");
  });

  it("the bundled sample written as CSV (; lists and JSON lists) has the bundled sample's hash", async () => {
    const raw = (await readFile(SAMPLE_GOLDEN_FILE, "utf8"))
      .split("\n")
      .filter((l) => l.trim() !== "")
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    const jsonl = await loadGoldenSet(SAMPLE_GOLDEN_FILE);
    for (const lists of ["semicolon", "json"] as const) {
      const csv = await parseGoldenSet(toCsv(raw, lists), `sample-${lists}.csv`);
      expect(csv.items).toEqual(jsonl.items);
      expect(csv.sha256).toBe(SAMPLE_HASH);
    }
  });
});

describe("explicit nulls and optional ids", () => {
  it("null for every optional field means absent", async () => {
    const nulls =
      '{"id":null,"question":"Do you sell GPU servers?","expected_source":null,"expected_substring":null,"expected_lines":null,"expected_chunk_id":null,"reference_answer":null,"key_facts":null,"tags":null}';
    const bare = '{"question":"Do you sell GPU servers?"}';
    const a = await parseGoldenSet(nulls, "n.jsonl");
    const b = await parseGoldenSet(bare, "b.jsonl");
    expect(a.items).toEqual(b.items);
    expect(a.items[0]).toEqual({
      id: "q-02e9704a1811",
      question: "Do you sell GPU servers?",
      expected_source: null,
      expected_substring: null,
      expected_chunk_id: null,
      expected_lines: null,
      reference_answer: null,
      key_facts: null,
      tags: [],
    });
    // "expected_substring": null next to a source: a document-level item, not an error.
    const doc = await parseGoldenSet('{"id":"d","question":"q","expected_source":"d.md","expected_substring":null}', "d.jsonl");
    expect(matchMode(doc.items[0] as GoldenItem)).toBe("document");
  });

  it("derived ids are stable across runs, formats and whitespace; the notice is said once", async () => {
    expect(deriveGoldenId("How do I renew a certificate?")).toBe("q-ad38808830a2");
    expect(deriveGoldenId("  How do I\n renew a  certificate? ")).toBe("q-ad38808830a2");
    expect(deriveGoldenId("how do I renew a certificate?")).not.toBe("q-ad38808830a2");
    const j1 = await parseGoldenSet('{"question":"A?"}\n{"question":"B?"}\n{"id":"c","question":"C?"}', "a.jsonl");
    const j2 = await parseGoldenSet('{"question":"A?"}\n{"question":"B?"}\n{"id":"c","question":"C?"}', "a.jsonl");
    const c = await parseGoldenSet("question,id\nA?,\nB?,\nC?,c\n", "a.csv");
    expect(j1.items.map((i) => i.id)).toEqual([deriveGoldenId("A?"), deriveGoldenId("B?"), "c"]);
    expect(j2.items).toEqual(j1.items);
    expect(c.items).toEqual(j1.items);
    expect(c.sha256).toBe(j1.sha256);
    expect(j1.notices).toEqual(['2 items have no id: ids derived from the question text ("q-" + the first 12 hex digits of its SHA-256)']);
    expect((await parseGoldenSet('{"id":"a","question":"A?"}', "x.jsonl")).notices).toEqual([]);
  });

  it("an integer id is read as its string, as a CSV cell would give it", async () => {
    const j = await parseGoldenSet('{"id":7,"question":"Q?"}', "n.jsonl");
    const c = await parseGoldenSet("id,question\n7,Q?\n", "n.csv");
    expect(j.items[0]?.id).toBe("7");
    expect(c.items).toEqual(j.items);
  });

  it("the same question twice without ids is an error naming both lines", async () => {
    const e1 = await errorOf(parseGoldenSet('{"question":"A?"}\n\n{"question":"A?"}', "dup.jsonl"));
    expect(e1.message).toBe(
      `dup.jsonl:3: field "id": duplicate id "${deriveGoldenId("A?")}" derived from the question, which is the same as on line 1 (give the items ids, or drop one)`,
    );
    expect(e1.line).toBe(3);
    const e2 = await errorOf(parseGoldenSet('question,reference_answer\nA?,"two\nlines"\n  A?  ,\n', "dup.csv"));
    expect(e2.message).toBe(
      `dup.csv:4 (row 3): field "id": duplicate id "${deriveGoldenId("A?")}" derived from the question, which is the same as on line 2, row 2 (give the items ids, or drop one)`,
    );
    expect([e2.line, e2.row, e2.field]).toEqual([4, 3, "id"]);
    // A given id equal to a derived one is a plain duplicate.
    const e3 = await errorOf(parseGoldenSet(`{"question":"A?"}\n{"id":"${deriveGoldenId("A?")}","question":"other"}`, "x.jsonl"));
    expect(e3.message).toMatch(/^x\.jsonl:2: field "id": duplicate id "q-[0-9a-f]{12}" \(first on line 1\)$/u);
  });
});

describe("match modes", () => {
  it("classifies every item of the fixtures and counts them", async () => {
    const s = await loadGoldenSet(JSONL);
    expect(s.items.map(matchMode)).toEqual(["substring", "document", "chunk_id", "unanswerable", "substring"]);
    expect(s.items.map(isAnswerable)).toEqual([true, true, true, false, true]);
    expect(countMatchModes(s.items)).toEqual({ chunk_id: 1, document: 1, substring: 2, lines: 0, unanswerable: 1 });
    expect(s.notices).toContain(
      "1 item matches by expected_chunk_id: chunk ids change when the documents are re-chunked, and such items then never hit (expected_source + expected_substring survive re-chunking)",
    );
    expect(s.notices).toHaveLength(2);
  });

  it("expected_lines resolved against the corpus is the lines mode, from JSONL or CSV", async () => {
    const opts = { corpusDir: SAMPLE_CORPUS_DIR };
    const j = await parseGoldenSet('{"id":"a","question":"q","expected_source":"postgres/connecting.md","expected_lines":[1,3]}', "l.jsonl", opts);
    const c1 = await parseGoldenSet("id,question,expected_source,expected_lines\na,q,postgres/connecting.md,1-3\n", "l.csv", opts);
    const c2 = await parseGoldenSet('id,question,expected_source,expected_lines\na,q,postgres/connecting.md,"[1,3]"\n', "l.csv", opts);
    const doc = (await readFile(path.join(SAMPLE_CORPUS_DIR, "postgres/connecting.md"), "utf8")).split("\n");
    expect(j.items[0]).toMatchObject({ expected_lines: [1, 3], expected_substring: normalizeText(doc.slice(0, 3).join(" ")) });
    expect(c1.items).toEqual(j.items);
    expect(c2.items).toEqual(j.items);
    expect(matchMode(j.items[0] as GoldenItem)).toBe("lines");
    // The hash is that of the resolved substring, as before lines had a mode.
    const written = await parseGoldenSet(
      JSON.stringify({ id: "a", question: "q", expected_source: "postgres/connecting.md", expected_substring: doc.slice(0, 3).join(" ") }),
      "w.jsonl",
    );
    expect(matchMode(written.items[0] as GoldenItem)).toBe("substring");
    expect(written.sha256).toBe(j.sha256);
  });

  it("items built without the newer fields (e.g. read back from the store) classify by what they have", () => {
    const base = { id: "a", question: "q", reference_answer: null, key_facts: null, tags: [] };
    expect(matchMode({ ...base, expected_source: "d.md", expected_substring: "x" })).toBe("substring");
    expect(matchMode({ ...base, expected_source: "d.md", expected_substring: null })).toBe("document");
    expect(matchMode({ ...base, expected_source: null, expected_substring: null })).toBe("unanswerable");
    expect(matchMode({ ...base, expected_source: null, expected_substring: null, expected_chunk_id: "d.md#3" })).toBe("chunk_id");
  });

  it("a chunk id changes the hash; sets without chunk ids keep theirs", async () => {
    const plain = await parseGoldenSet('{"id":"a","question":"q","expected_source":"d.md"}', "p.jsonl");
    const chunk = await parseGoldenSet('{"id":"a","question":"q","expected_source":"d.md","expected_chunk_id":"d.md#1"}', "c.jsonl");
    const other = await parseGoldenSet('{"id":"a","question":"q","expected_source":"d.md","expected_chunk_id":"d.md#2"}', "c.jsonl");
    expect(new Set([plain.sha256, chunk.sha256, other.sha256]).size).toBe(3);
    const { expected_chunk_id: _c, expected_lines: _l, ...legacy } = plain.items[0] as GoldenItem;
    expect(goldenSetHash([legacy])).toBe(plain.sha256);
  });
});

describe("errors name file, line (CSV: row) and field", () => {
  it("CSV: a bad cell after a multi-line cell gives its physical line and its row", async () => {
    const text = 'id,question,expected_source,expected_substring\r\na,"two\r\nlines",d.md,x\r\n\r\nb,,d.md,x\r\n';
    const e = await errorOf(parseGoldenSet(text, "bad.csv"));
    expect(e.message).toMatch(/^bad\.csv:5 \(row 3\): field "question": /u);
    expect([e.file, e.line, e.row, e.field]).toEqual(["bad.csv", 5, 3, "question"]);
  });

  it("CSV: header, list, range and quoting errors", async () => {
    expect((await errorOf(parseGoldenSet("id,question,answer\na,q,x\n", "h.csv"))).message).toMatch(
      /^h\.csv:1 \(row 1\): unknown column\(s\) "answer" in the header row \(columns: id, question, /u,
    );
    expect((await errorOf(parseGoldenSet("id,expected_source\na,d.md\n", "h.csv"))).message).toBe('h.csv:1 (row 1): field "question": missing column in the header row');
    expect((await errorOf(parseGoldenSet("question,Question\na,b\n", "h.csv"))).message).toBe('h.csv:1 (row 1): field "question": column named twice in the header row');
    expect((await errorOf(parseGoldenSet('question,tags\nq,"[not json"\n', "l.csv"))).message).toMatch(
      /^l\.csv:2 \(row 2\): field "tags": starts with "\[" but is not a JSON array/u,
    );
    expect((await errorOf(parseGoldenSet('question,key_facts\nq,"[1, 2]"\n', "l.csv"))).message).toBe(
      'l.csv:2 (row 2): field "key_facts": must be a JSON array of strings, or a;b',
    );
    expect((await errorOf(parseGoldenSet("question,expected_source,expected_lines\nq,d.md,three\n", "r.csv"))).message).toBe(
      'r.csv:2 (row 2): field "expected_lines": must be first-last, first;last or [first, last]',
    );
    expect((await errorOf(parseGoldenSet("question,expected_source,expected_lines\nq,d.md,5-2\n", "r.csv", { corpusDir: SAMPLE_CORPUS_DIR }))).message).toMatch(
      /^r\.csv:2 \(row 2\): field "expected_lines": last line is before first line/u,
    );
    const ragged = await errorOf(parseGoldenSet('question,id\n"a\nb",1\n\nc,2,3\n', "g.csv"));
    expect([ragged.line, ragged.row]).toEqual([5, 3]);
    expect(ragged.message).toMatch(/^g\.csv:5 \(row 3\): not valid CSV \(Invalid Record Length: expect 2, got 3\)$/u);
    const open = await errorOf(parseGoldenSet('question,id\nq,1\n"never closed,2\n', "q.csv"));
    expect([open.line, open.row]).toEqual([3, 3]);
    expect(open.message).toMatch(/^q\.csv:3 \(row 3\): not valid CSV \(Quote Not Closed/u);
  });

  it("JSONL: a BOM keeps line numbers; chunk id with a substring is refused", async () => {
    expect((await errorOf(parseGoldenSet('\uFEFF{"id":"a","question":"q"}\n{"id":"b","question":""}', "b.jsonl"))).message).toMatch(/^b\.jsonl:2: field "question": /u);
    expect((await errorOf(parseGoldenSet('{"question":"q","expected_chunk_id":"d#1","expected_lines":[1,2]}', "c.jsonl"))).message).toBe(
      'c.jsonl:1: field "expected_chunk_id": give either expected_chunk_id or expected_substring/expected_lines, not both',
    );
    expect((await errorOf(parseGoldenSet("question,expected_chunk_id,expected_substring\nq,d#1,x\n", "c.csv"))).message).toBe(
      'c.csv:2 (row 2): field "expected_chunk_id": give either expected_chunk_id or expected_substring/expected_lines, not both',
    );
    expect((await errorOf(parseGoldenSet('{"id":"","question":"q"}', "i.jsonl"))).message).toMatch(/^i\.jsonl:1: field "id": /u);
  });

  it("verifySubstrings checks the document of a document-level item", async () => {
    const e = await errorOf(parseGoldenSet('{"id":"a","question":"q","expected_source":"no/such.md"}', "v.jsonl", { corpusDir: SAMPLE_CORPUS_DIR, verifySubstrings: true }));
    expect(e.message).toMatch(/^v\.jsonl:1: field "expected_source": document "no\/such\.md" not found/u);
  });
});

describe("format detection and the bundled sample", () => {
  it("by extension, else by the first character", () => {
    expect(detectGoldenFormat("a.CSV", "{")).toBe("csv");
    expect(detectGoldenFormat("a.jsonl", "question\n")).toBe("jsonl");
    expect(detectGoldenFormat("a.ndjson", "")).toBe("jsonl");
    expect(detectGoldenFormat("golden", '\uFEFF  {"question":"q"}')).toBe("jsonl");
    expect(detectGoldenFormat("golden", "// comment\n")).toBe("jsonl");
    expect(detectGoldenFormat("golden", "")).toBe("jsonl");
    expect(detectGoldenFormat("golden.txt", "id,question\n")).toBe("csv");
  });

  it("an explicit format wins over the extension", async () => {
    const s = await parseGoldenSet("question\nQ?\n", "set.jsonl", { format: "csv" });
    expect(s.format).toBe("csv");
    expect(s.items[0]?.question).toBe("Q?");
  });

  it("the bundled sample's hash is unchanged, every item has its id and no notice is given", async () => {
    const s = await loadGoldenSet(SAMPLE_GOLDEN_FILE, { corpusDir: SAMPLE_CORPUS_DIR, verifySubstrings: true });
    expect(s.sha256).toBe(SAMPLE_HASH);
    expect((await loadGoldenSet(SAMPLE_GOLDEN_FILE)).sha256).toBe(SAMPLE_HASH);
    expect(s.notices).toEqual([]);
    expect(s.items.every((i) => i.expected_chunk_id === null && i.expected_lines === null)).toBe(true);
    const modes = countMatchModes(s.items);
    expect(modes.chunk_id + modes.document + modes.lines).toBe(0);
    expect(modes.substring + modes.unanswerable).toBe(s.items.length);
  });
});
