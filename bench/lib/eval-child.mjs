// One `ragmeter eval` in this process (bench/eval.mjs runs it as a child): prints
// `{"seconds": …, "max_rss_mib": …, "code": …}` as the last line of stdout.
import { runCli } from "../../scorer/dist/cli/main.js";

const t0 = performance.now();
const lines = [];
const io = {
  out: (s) => lines.push(s),
  err: (s) => process.stderr.write(`${s}\n`),
  env: process.env,
  interactive: false,
  cwd: process.cwd(),
};
const code = await runCli([process.execPath, "ragmeter", ...process.argv.slice(2)], io);
const seconds = (performance.now() - t0) / 1000;
// resourceUsage().maxRSS is in KiB
console.log(JSON.stringify({ seconds, max_rss_mib: process.resourceUsage().maxRSS / 1024, code }));
