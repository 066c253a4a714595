// The `unconfirmed` marker of drafted golden items (issue 37): read from JSONL and CSV, left out of
// the set's hash (confirming an item keeps the set's runs comparable), listed by checkGoldenSet.
import { checkGoldenSet, GoldenSetError, parseGoldenSet } from "@ragmeter/golden";
import { describe, expect, it } from "vitest";

const drafted = [
  '{"id":"a","question":"How long is the grace period?","expected_source":"billing.md","expected_substring":"72 hours","unconfirmed":true}',
  '{"id":"b","question":"Which port does Postgres use?","expected_source":"pg.md","unconfirmed":false}',
  '{"id":"c","question":"Do you sell GPU servers?","unconfirmed":null}',
].join("\n");
const confirmed = drafted.replace(/,"unconfirmed":(true|false|null)/gu, "");

describe("unconfirmed golden items", () => {
  it("are read from JSONL, marked only when true, and left out of the hash", async () => {
    const d = await parseGoldenSet(drafted, "d.jsonl");
    const c = await parseGoldenSet(confirmed, "c.jsonl");
    expect(d.items.map((i) => i.unconfirmed)).toEqual([true, undefined, undefined]);
    expect(d.sha256).toBe(c.sha256);
    expect((await checkGoldenSet(d.items)).unconfirmed).toEqual(["a"]);
    expect((await checkGoldenSet(c.items)).unconfirmed).toEqual([]);
  });

  it("are read from a CSV column (true/false, yes/no, 1/0); anything else names the cell", async () => {
    const csv = "id,question,expected_source,unconfirmed\na,Q one?,x.md,TRUE\nb,Q two?,y.md,no\nc,Q three?,z.md,1\nd,Q four?,w.md,\n";
    const s = await parseGoldenSet(csv, "d.csv");
    expect(s.items.map((i) => [i.id, i.unconfirmed ?? false])).toEqual([
      ["a", true],
      ["b", false],
      ["c", true],
      ["d", false],
    ]);
    await expect(parseGoldenSet("question,unconfirmed\nQ?,maybe\n", "bad.csv")).rejects.toThrow(GoldenSetError);
    await expect(parseGoldenSet("question,unconfirmed\nQ?,maybe\n", "bad.csv")).rejects.toThrow('field "unconfirmed": must be true or false');
    await expect(parseGoldenSet('{"question":"Q?","unconfirmed":"yes"}', "bad.jsonl")).rejects.toThrow('field "unconfirmed"');
  });
});
