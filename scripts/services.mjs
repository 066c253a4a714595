#!/usr/bin/env node
// Starts (or stops) the services the integration tests use, without root:
//   - the Apache Kafka broker (KRaft, 127.0.0.1:9092) through scripts/kafka/kafka.mjs,
//     which resolves its jars from Maven Central on first use (needs Java 17+ and Maven).
// The ClickHouse engine is embedded (chdb) and needs no service.
//   node scripts/services.mjs start|stop
import { spawnSync } from "node:child_process";
import path from "node:path";

const here = path.dirname(new URL(import.meta.url).pathname);
const action = process.argv[2] ?? "start";
if (action !== "start" && action !== "stop") {
  console.error(`usage: services.mjs start|stop (got ${action})`);
  process.exit(2);
}
const r = spawnSync(process.execPath, [path.join(here, "kafka", "kafka.mjs"), action], { stdio: "inherit" });
process.exit(r.status ?? 2);
