// Writes docs/configuration.md from the one settings catalog (@ragmeter/runtime, built by
// `npm run docs:config` first). tests/unit/settings.unit.test.ts fails when the file is stale.
import { writeFileSync } from "node:fs";
import { renderConfigurationDoc } from "@ragmeter/runtime";

const file = new URL("../docs/configuration.md", import.meta.url);
writeFileSync(file, renderConfigurationDoc());
console.log(`wrote ${file.pathname}`);
