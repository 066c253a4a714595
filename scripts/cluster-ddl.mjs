// Writes docs/cluster-ddl.sql, ragmeter's schema in its clustered form, from the migrations
// (store/migrations/*.sql through store/src/migrations.ts, built by `npm run docs:cluster-ddl` first), for database
// `ragmeter` on cluster `ragmeter_cluster`. tests/unit/cluster-ddl.unit.test.ts fails when it is stale.
import { writeFileSync } from "node:fs";
import { renderClusterDdl } from "../store/dist/migrations.js";

const file = new URL("../docs/cluster-ddl.sql", import.meta.url);
writeFileSync(file, renderClusterDdl("ragmeter", "ragmeter_cluster"));
console.log(`wrote ${file.pathname}`);
