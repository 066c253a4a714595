import type { GoldenSet } from "@ragmeter/golden";
import type { Store } from "./client.js";
import { nextVersion } from "./runs.js";

/**
 * Stores a golden set's items under its hash (`golden_sets`, `golden_items`, design §2), so the
 * streaming scorer can compute recall for a golden id without the file. Idempotent.
 */
export async function saveGoldenSet(store: Store, set: GoldenSet): Promise<void> {
  const version = nextVersion();
  await store.client.insert({
    table: `${store.database}.golden_sets`,
    values: [{ golden_set_hash: set.sha256, path: set.path, item_count: set.items.length, created_at: Date.now(), version }],
    format: "JSONEachRow",
  });
  if (set.items.length === 0) return;
  await store.client.insert({
    table: `${store.database}.golden_items`,
    values: set.items.map((it, position) => ({
      golden_set_hash: set.sha256,
      golden_id: it.id,
      position,
      question: it.question,
      expected_source: it.expected_source,
      expected_substring: it.expected_substring,
      reference_answer: it.reference_answer,
      key_facts: it.key_facts ?? [],
      has_key_facts: it.key_facts === null ? 0 : 1,
      tags: it.tags,
      version,
    })),
    format: "JSONEachRow",
  });
}
