import { readFile } from "node:fs/promises";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { SAMPLE_CORPUS_DIR, SAMPLE_GOLDEN_FILE } from "../../examples/sample-rag/src/index.js";
import { GoldenSetError, loadGoldenSet, normalizeText, parseGoldenSet } from "../../golden/src/index.js";

describe("golden-set loader (design §7)", () => {
  it("names file, line and field of a bad line", async () => {
    const text = ['{"id":"a","question":"q?","expected_source":"d.md","expected_substring":"x"}', "", '{"id":"b","question":"","expected_source":null}'].join("\n");
    await expect(parseGoldenSet(text, "set.jsonl")).rejects.toThrow(/^set\.jsonl:3: field "question": /u);
    await expect(parseGoldenSet("{not json", "set.jsonl")).rejects.toThrow(/set\.jsonl:1: not valid JSON/u);
    await expect(parseGoldenSet('{"id":"a","question":"q","expected_source":"d.md","expected_chunk_id":"d.md#1","expected_substring":"x"}', "f")).rejects.toThrow(
      /field "expected_chunk_id"/u,
    );
    await expect(parseGoldenSet('{"id":"a","question":"q","typo_field":1}', "f")).rejects.toThrow(/unknown field\(s\) typo_field/u);
  });
  it("refuses a substring or line range without the document that holds it (it would be read as unanswerable)", async () => {
    await expect(parseGoldenSet('{"id":"a","question":"q?","expected_substring":"port 5432"}', "set.jsonl")).rejects.toThrow(
      /^set\.jsonl:1: field "expected_source": needed with expected_substring\/expected_lines/u,
    );
    await expect(parseGoldenSet('{"id":"a","question":"q?","expected_source":null,"expected_lines":[1,2]}', "set.jsonl")).rejects.toThrow(
      /^set\.jsonl:1: field "expected_source": needed/u,
    );
    const csv = "\uFEFFid,question,expected_source,expected_substring\r\na,q?,d.md,x\r\nb,q2?,,port 5432\r\n";
    await expect(parseGoldenSet(csv, "set.csv")).rejects.toThrow(/^set\.csv:3 \(row 3\): field "expected_source": needed/u);
    // the same item with its document, or without the substring, loads
    const ok = await parseGoldenSet('{"id":"a","question":"q?","expected_source":"d.md","expected_substring":"x"}\n{"id":"b","question":"q2?"}', "f");
    expect(ok.items.map((i) => [i.expected_source, i.expected_substring])).toEqual([
      ["d.md", "x"],
      [null, null],
    ]);
  });
  it("refuses duplicate ids, naming both lines", async () => {
    const line = '{"id":"a","question":"q","expected_source":null}';
    const err = await parseGoldenSet(`${line}\n${line}`, "dup.jsonl").catch((e: unknown) => e);
    expect(err).toBeInstanceOf(GoldenSetError);
    expect((err as GoldenSetError).message).toBe('dup.jsonl:2: field "id": duplicate id "a" (first on line 1)');
  });
  it("null or absent expected_source = unanswerable; an empty file is an empty set", async () => {
    const s = await parseGoldenSet('{"id":"a","question":"q"}\n{"id":"b","question":"q2","expected_source":null}', "f");
    expect(s.items.map((i) => i.expected_source)).toEqual([null, null]);
    expect((await parseGoldenSet("\n\n", "empty.jsonl")).items).toEqual([]);
  });
  it("the hash ignores formatting and key order but not content", async () => {
    const a = await parseGoldenSet('{"id":"a","question":"How  much?","expected_source":"d.md","expected_substring":"x y"}', "f");
    const b = await parseGoldenSet('{ "expected_substring": "x  y", "expected_source": "d.md", "question": "How much?", "id": "a" }', "g");
    const c = await parseGoldenSet('{"id":"a","question":"How much?","expected_source":"d.md","expected_substring":"x z"}', "f");
    expect(a.sha256).toBe(b.sha256);
    expect(a.sha256).not.toBe(c.sha256);
    expect(a.sha256).toMatch(/^[0-9a-f]{64}$/u);
  });
  it("resolves expected_lines against the corpus", async () => {
    const s = await parseGoldenSet('{"id":"a","question":"q","expected_source":"postgres/connecting.md","expected_lines":[1,1]}', "f", { corpusDir: SAMPLE_CORPUS_DIR });
    const first = (await readFile(path.join(SAMPLE_CORPUS_DIR, "postgres/connecting.md"), "utf8")).split("\n")[0] as string;
    expect(s.items[0]?.expected_substring).toBe(normalizeText(first));
  });
});

describe("the bundled sample", () => {
  it("refuses a source outside the corpus folder (issue 39: ../ or an absolute path read any file), naming it", async () => {
    for (const source of ["../../../../etc/passwd", "/etc/passwd", "postgres/../../sample.md"]) {
      const line = JSON.stringify({ id: "a", question: "q", expected_source: source, expected_substring: "root" });
      await expect(parseGoldenSet(line, "f", { corpusDir: SAMPLE_CORPUS_DIR, verifySubstrings: true })).rejects.toThrow(
        `f:1: field "expected_source": "${source}" is not a document inside ${SAMPLE_CORPUS_DIR} (a path relative to the corpus folder, without ..)`,
      );
    }
    // Inside the folder, through a sub-folder and back, is a document like any other.
    const s = await parseGoldenSet('{"id":"a","question":"q","expected_source":"postgres/../postgres/connecting.md","expected_lines":[1,1]}', "f", {
      corpusDir: SAMPLE_CORPUS_DIR,
    });
    expect(s.items[0]?.expected_lines).toEqual([1, 1]);
  });

  it("every expected substring and key fact occurs in its document; the mix of tags holds", async () => {
    const set = await loadGoldenSet(SAMPLE_GOLDEN_FILE, { corpusDir: SAMPLE_CORPUS_DIR, verifySubstrings: true });
    expect(set.items.length).toBeGreaterThanOrEqual(50);
    for (const it of set.items) {
      if (it.expected_source === null) continue;
      const doc = normalizeText(await readFile(path.join(SAMPLE_CORPUS_DIR, it.expected_source), "utf8"));
      expect(doc.includes(it.expected_substring as string), `${it.id}: substring`).toBe(true);
      for (const f of it.key_facts ?? []) expect(doc.includes(normalizeText(f)), `${it.id}: key fact ${f}`).toBe(true);
    }
    const count = (t: string): number => set.items.filter((i) => i.tags.includes(t)).length;
    expect(set.items.filter((i) => i.expected_source === null).length).toBeGreaterThanOrEqual(5);
    expect(count("typo")).toBeGreaterThanOrEqual(3);
    expect(count("ambiguous")).toBeGreaterThanOrEqual(3);
    expect(count("lang:ru")).toBeGreaterThanOrEqual(3);
  });
});
