import { randomUUID } from "node:crypto";
import type { Store } from "../../store/src/client.js";
import { migrate } from "../../store/src/migrations.js";
import { RecentChunks } from "../../store/src/recentChunks.js";

/**
 * A fresh, migrated database in the engine `base` holds, with a memory of written chunks of its own;
 * closing it leaves the shared engine open.
 */
export async function freshDatabase(base: Store): Promise<Store> {
  const database = `t_${randomUUID().replace(/-/gu, "").slice(0, 12)}`;
  await migrate(base.client, database);
  return { ...base, database, recentChunks: new RecentChunks(), close: async () => {} };
}
