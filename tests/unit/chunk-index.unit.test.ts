import { sentences } from "@ragmeter/golden";
import { describe, expect, it } from "vitest";
import { type Token, type Tokenized, Tokens, tokenize } from "../../core/src/judges/heuristic/tokens.js";

// The judge's compact chunk form (chunkIndex.ts) against the sets it replaces, built here
// independently: each sentence of the chunk tokenized alone (`tokenize`), its sets united by hand.

const TEXTS = {
  english:
    "PostgreSQL listens on port 5432 by default. The replica does not accept writes, and backups are kept for 30 days. " +
    "Port 5432 can be changed in postgresql.conf; the replica listens on port 5433. Backups never expire before 30 days.",
  russian: "Сервер хранит резервные копии 30 дней. Реплика не принимает запись. Сервер слушает порт 5432 и порт 5433.",
  chinese: "数据库默认监听5432端口。副本不接受写入。备份保存30天。",
  repeated: "Alpha beta gamma. Alpha beta gamma. Gamma beta alpha 7.",
};

/** The chunk's sets as the judge built them before the compact form: the sentences' tokens united. */
function bySentence(text: string): { parts: Tokenized[]; segments: Token[]; content: Set<string>; numbers: Set<string> } {
  const parts = sentences(text).map((s) => tokenize(s));
  return {
    parts,
    segments: parts.flatMap((p) => [...p.segments]),
    content: new Set(parts.flatMap((p) => [...p.content])),
    numbers: new Set(parts.flatMap((p) => [...p.numbers])),
  };
}

/** A number other than `number` within `window` segments of a segment holding one of `words` (the rule's plain reading). */
function otherNumberNextTo(segments: readonly Token[], words: ReadonlySet<string>, number: string, window: number): boolean {
  return segments.some((s, k) => words.has(s.text) && segments.slice(Math.max(0, k - window), k + window + 1).some((m) => m.isNumber && m.text !== number));
}

describe("a chunk's compact tokens answer as the sets they replace", () => {
  for (const [name, text] of Object.entries(TEXTS)) {
    it(`${name}: content, numbers, pairs, positions, sentences and number windows`, () => {
      const chunk = new Tokens({ entries: 0, segments: 0 }).chunk(text);
      const want = bySentence(text);
      expect(new Set(chunk.content)).toEqual(want.content);
      expect(chunk.content.size).toBe(want.content.size);
      expect(new Set(chunk.numbers)).toEqual(want.numbers);
      expect(chunk.numbers.size).toBe(want.numbers.size);
      for (const t of want.content) expect(chunk.content.has(t)).toBe(true);
      expect(chunk.content.has("zzz-not-there")).toBe(false);
      // a number is no content word, a content word no number
      for (const t of want.numbers) expect(chunk.content.has(t)).toBe(false);
      expect(chunk.segmentCount).toBe(want.segments.length);
      expect(chunk.sentenceCount).toBe(want.parts.length);
      expect(chunk.negated).toBe(want.parts.some((p) => p.negated));

      // every adjacent pair within a sentence, and no pair made of one sentence's last token and the next one's first
      const pairs = new Set(want.parts.flatMap((p) => [...p.bigrams]));
      expect(pairs.size).toBeGreaterThan(0);
      for (const b of pairs) {
        const [a, c] = b.split(" ") as [string, string];
        expect(chunk.hasPair(a, c)).toBe(true);
      }
      const kept = (p: Tokenized) => p.segments.filter((s) => s.isNumber || !s.stop).map((s) => s.text);
      for (let i = 0; i + 1 < want.parts.length; i++) {
        const last = kept(want.parts[i] as Tokenized).at(-1);
        const first = kept(want.parts[i + 1] as Tokenized)[0];
        if (last !== undefined && first !== undefined && !pairs.has(`${last} ${first}`)) expect(chunk.hasPair(last, first)).toBe(false);
      }
      for (const b of pairs) {
        const [a, c] = b.split(" ") as [string, string];
        if (!pairs.has(`${c} ${a}`)) expect(chunk.hasPair(c, a)).toBe(false);
      }

      // per sentence: its content's size, polarity, what it negates, and the sentences each token is in
      want.parts.forEach((p, i) => {
        expect(chunk.sentenceSize(i)).toBe(p.content.size);
        expect(chunk.sentenceNegated(i)).toBe(p.negated);
        expect(chunk.sentenceNegates(i)).toEqual(p.negates);
        for (const t of want.content) expect(chunk.sentenceHas(i, t)).toBe(p.content.has(t));
      });
      for (const t of want.content) {
        const at = want.parts.flatMap((p, i) => (p.content.has(t) ? [i] : []));
        expect(Array.from(chunk.sentencesOf(t) ?? [])).toEqual(at);
      }
      for (const t of want.numbers) expect(chunk.sentencesOf(t)).toBeUndefined();

      // the number rule's window: each content word with each number of the chunk and one it lacks
      for (const w of want.content) {
        for (const n of [...want.numbers, "999999"]) {
          for (const window of [1, 2]) {
            expect(chunk.otherNumberNextTo(new Set([w]), n, window), `${w} ${n} ${window}`).toBe(otherNumberNextTo(want.segments, new Set([w]), n, window));
          }
        }
      }
    });
  }

  it("the English chunk by hand: pairs, positions and the number next to a word", () => {
    const chunk = new Tokens({ entries: 0, segments: 0 }).chunk(TEXTS.english);
    // "listens on port 5432": stems "listen", "port" and the number are adjacent once stop words are skipped
    expect(chunk.hasPair("listen", "port")).toBe(true);
    expect(chunk.hasPair("port", "5432")).toBe(true);
    expect(chunk.hasPair("5432", "port")).toBe(false);
    // "replica" is in the second and third sentences, "backup" in the second and fourth
    expect(Array.from(chunk.sentencesOf("replica") ?? [])).toEqual([1, 2]);
    expect(Array.from(chunk.sentencesOf("backup") ?? [])).toEqual([1, 3]);
    expect(chunk.sentenceNegated(1)).toBe(true);
    expect(chunk.sentenceNegated(0)).toBe(false);
    // "port" appears next to 5433 (sentence 3): another number than 5432 within two segments
    expect(chunk.otherNumberNextTo(new Set(["port"]), "5432", 2)).toBe(true);
    // "days" (Snowball: "dai") comes right after 30 both times; the window runs on past a sentence's
    // end ("30 days. Port 5432"), as the rule always read the chunk's segments
    expect(chunk.otherNumberNextTo(new Set(["dai"]), "30", 1)).toBe(false);
    expect(chunk.otherNumberNextTo(new Set(["dai"]), "31", 1)).toBe(true);
    expect(chunk.otherNumberNextTo(new Set(["dai"]), "30", 2)).toBe(true);
  });
});
