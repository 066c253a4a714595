// `ragmeter init`: the files it writes, as text: the target config, the starter golden set and the
// CI workflow with the gate.

import { GROUNDING } from "@ragmeter/core/domain/metrics/judged";
import type { RetrievedItem } from "@ragmeter/core/domain/metrics/recall";
import { recallMetric } from "@ragmeter/core/domain/metrics/recall";
import type { DraftItemLine } from "../draft/reviewFile.js";
import { uniqueSubstring } from "../pin.js";
import type { TargetConfig } from "../targetConfig.js";
import type { BodyTemplate } from "./probe.js";
import type { ReplyMapping } from "./replyShape.js";

/** The target config `init` proposes: POST the body that worked, the reply mapped by `mapping`. */
export function targetConfigOf(url: string, body: BodyTemplate, mapping: ReplyMapping & { contexts: NonNullable<ReplyMapping["contexts"]> }): TargetConfig {
  const c = mapping.contexts;
  return {
    url,
    method: "POST",
    headers: {},
    body,
    queryParams: {},
    response: {
      answer: mapping.answer.path,
      contexts: c.path,
      context: { id: c.id, ...(c.document_id !== null ? { document_id: c.document_id } : {}), text: c.text, ...(c.score !== null ? { score: c.score } : {}) },
    },
  };
}

/** The target config as written: the fields a person reads, defaults left out. */
export function targetConfigText(cfg: TargetConfig): string {
  return `${JSON.stringify({ url: cfg.url, method: cfg.method, body: cfg.body, response: cfg.response }, null, 2)}\n`;
}

/** Most characters of a proposed substring. */
const MAX_SUBSTRING = 160;

/**
 * A substring of a context's text proposed as the expected substring: its first sentence of three
 * words or more that occurs once in it (with `answer`, the one sharing the most words with the
 * answer), cut at a word boundary to at most 160 characters.
 */
export function proposedSubstring(text: string, answer?: string): string {
  const s = uniqueSubstring(text, answer);
  if (s.length <= MAX_SUBSTRING) return s;
  const cut = s.slice(0, MAX_SUBSTRING);
  const space = cut.lastIndexOf(" ");
  return space > MAX_SUBSTRING / 2 ? cut.slice(0, space) : cut;
}

/** The starter golden set of `init`: the question asked, its top context's document and the sentence of it nearest the answer. */
export function starterGoldenText(question: string, top: RetrievedItem, url: string, answer: string): string {
  const item: DraftItemLine = {
    id: "starter-1",
    question,
    expected_source: top.document_id,
    expected_substring: proposedSubstring(top.text, answer),
    tags: ["starter"],
    unconfirmed: true,
  };
  return [
    `// Starter golden set written by \`ragmeter init\` from one reply of ${url}: the expected source is the`,
    `// document the service ranked first, not one a person chose. Check it (is the answer in that document,`,
    `// and is the substring the part that holds it?), then delete "unconfirmed": true. Add questions of your own,`,
    `// or draft more: npx ragmeter golden draft --from-traffic | --from-docs DIR`,
    JSON.stringify(item),
    "",
  ].join("\n");
}

/** Regression rules of the generated gate: recall@5 may not drop by more than 5 points, grounding by 3. */
export const GATE_RULES = `${recallMetric(5).name}<-0.05,${GROUNDING.name}<-0.03`;

/**
 * The CI workflow: eval on every pull request and push to main; a pull request is compared with
 * the last run on main (its store kept in the Actions cache) and fails on `--fail-on`.
 * @param target the eval flag naming the target (`--target-config FILE` or `--target-module FILE`).
 */
export function workflowText(opts: { readonly target: string; readonly golden: string; readonly url: string | null }): string {
  const evalLine = `npx ragmeter eval --golden ${opts.golden} ${opts.target} --pipeline-version "$GITHUB_SHA" --json ragmeter-run.json`;
  return `# Written by \`ragmeter init\`: evaluates the RAG service on the golden set on every pull request and
# push to main, and fails a pull request whose recall@5 or grounding dropped against the last run on
# main (paired deltas, 95% interval; ragmeter compare --fail-on).
name: ragmeter
on:
  pull_request:
  push:
    branches: [main]
jobs:
  ragmeter:
    runs-on: ubuntu-latest
    steps:
      - uses: actions/checkout@v4
      - uses: actions/setup-node@v4
        with:
          node-version: 24
      - run: npm ci
      # Start your service here so that it answers${opts.url !== null ? ` at ${opts.url}` : ""} before eval runs.
      - name: Restore the runs of main
        uses: actions/cache/restore@v4
        with:
          path: .ragmeter
          key: ragmeter-main-\${{ github.run_id }}
          restore-keys: ragmeter-main-
      - name: Evaluate
        run: ${evalLine}
      - name: Gate against the last run on main
        if: github.event_name == 'pull_request'
        run: |
          CANDIDATE=$(node -e 'console.log(JSON.parse(require("fs").readFileSync("ragmeter-run.json","utf8")).run_id)')
          BASELINE=$(npx ragmeter runs --json | node -e 'const r=JSON.parse(require("fs").readFileSync(0,"utf8")).filter(x=>x.run_id!==process.argv[1]&&x.status!=="failed");console.log(r[0]?.run_id??"")' "$CANDIDATE")
          if [ -z "$BASELINE" ]; then echo "no run on main yet: nothing to compare with"; exit 0; fi
          npx ragmeter compare "$BASELINE" "$CANDIDATE" --fail-on "${GATE_RULES}"
      - name: Keep the runs of main
        if: github.event_name == 'push'
        uses: actions/cache/save@v4
        with:
          path: .ragmeter
          key: ragmeter-main-\${{ github.run_id }}
`;
}
