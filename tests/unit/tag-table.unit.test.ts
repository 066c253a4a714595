import { describe, expect, it } from "vitest";
import { tagTable } from "../../scorer/src/cli/format/text.js";
import type { Aggregate } from "../../scorer/src/runs/aggregate.js";

const agg = (metrics: Record<string, number | null>, n: Record<string, number>): Aggregate => ({ metrics, n, counts: {} }) as unknown as Aggregate;

describe("summary by-tag table", () => {
  it("shows recall at every --k asked and keeps one space or more between every pair of cells", () => {
    const names = ["recall@1", "recall@20", "mrr", "grounding", "relevance", "key_facts", "abstention"];
    const lines = tagTable(
      {
        "topic:a-very-long-tag-name-indeed": agg(
          { "recall@1": 0.5, "recall@20": 1, grounding: 0.125, relevance: 3.25, key_facts: null, abstention: null },
          { "recall@1": 1234, "recall@20": 1234, grounding: 1000, relevance: 1000 },
        ),
        x: agg({ "recall@1": 0, "recall@20": 0 }, { "recall@1": 2, "recall@20": 2 }),
      },
      names,
    );
    // widths by hand: tag 33 (the long tag), recall@1 9 ("0.50·1234"), recall@20 9, grounding 9, relevance 10 ("3.3/4·1000"),
    // key facts 9 (header), abstention 10 (header); two spaces before every column after the tag
    expect(lines).toEqual([
      "  tag                                 recall@1  recall@20  grounding   relevance  key facts  abstention",
      "  topic:a-very-long-tag-name-indeed  0.50·1234  1.00·1234  0.13·1000  3.3/4·1000          —           —",
      "  x                                     0.00·2     0.00·2          —           —          —           —",
    ]);
  });
});
