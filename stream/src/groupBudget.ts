import type { JudgeBudget } from "@ragmeter/core/scoring/budget";
import type { Store } from "@ragmeter/store/client";
import { selectJudgeSpend } from "@ragmeter/store/ingestionStats";
import type { ConsumerLogger } from "./consumer.js";
import type { IngestionStats } from "./stats.js";

/**
 * What makes a scorer's judge budget count its whole consumer group (design §5): each call reads the
 * judge spend of the last 60 minutes of every `ingestion_stats` row but this process's (`scorerId`):
 * the other scorers' and this scorer's earlier processes' (a restart keeps the hour's spend), and
 * hands it to the budget, which adds it to what this process spent in memory. A read that fails
 * leaves the figures of the last read (warned once per outage) and never throws: scoring goes on.
 * Nothing is read while the budget has no cap.
 */
function groupBudgetReader(store: Store, budget: JudgeBudget | null, scorerId: string, log: ConsumerLogger): (now: number) => Promise<void> {
  let failing = false;
  return async (now) => {
    if (budget === null || !budget.capped) return;
    try {
      const fromMinute = (Math.floor(now / 60_000) - 59) * 60;
      budget.setGroupSpend(await selectJudgeSpend(store, fromMinute, scorerId));
      if (failing) log.info("judge budget: the group's spend read again", {});
      failing = false;
    } catch (err) {
      if (!failing)
        log.warn("judge budget: the group's spend not read from ingestion_stats; counting the last figures read and this scorer's own spend", { error: (err as Error).message });
      failing = true;
    }
  };
}

/**
 * Connects a scorer's judge budget to its stats: what its judges spend goes to its `ingestion_stats`
 * rows; reads what the group spent once ({@link groupBudgetReader}, before the first scoring pass)
 * and returns the reader (called with every stats write).
 */
export async function connectGroupBudget(store: Store, budget: JudgeBudget | null, stats: IngestionStats, log: ConsumerLogger): Promise<(now: number) => Promise<void>> {
  budget?.observe((service, spend, at) => stats.judgeSpend(service, spend, at));
  const read = groupBudgetReader(store, budget, stats.scorerId, log);
  await read(Date.now());
  return read;
}
