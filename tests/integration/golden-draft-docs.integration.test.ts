// `ragmeter golden draft --from-docs` (issue 37) through the real `openai` client against a scripted
// OpenAI-compatible server: one proposal per passage, kept or dropped by reason as worked out by
// hand below, and a review file that passes `golden check --corpus`.
import { mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { parseGoldenSet } from "@ragmeter/golden";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cli } from "../helpers/cli.js";
import { type RecordedRequest, startFakeOpenAI } from "../helpers/openaiServer.js";

const DOCS: Record<string, string> = {
  "billing/grace.md":
    "# Grace period\n\nWhen your balance reaches zero, we send you an email. Your resources keep running during a grace period of 72 hours. After that, they are stopped.",
  "billing/grace-copy.md": "Old page, kept for reference. Once the balance is at 0, resources keep running for a grace period of 72 hours before they stop.",
  "postgres/port.md": "Managed Postgres listens on port 5432. Connections must use TLS 1.2 or later, and a client certificate is optional on every plan.",
  "guide.html":
    "<html><head><style>body { color: red }</style></head><body><h1>Backups</h1><p>Backups run every night at 02:00 UTC and are kept for 14 days. Restoring a backup creates a new instance next to the old one.</p></body></html>",
  "limits.txt": "Each project can hold at most ten databases. Ask support for more; the limit protects shared hosts from a single noisy project.",
  "self.md": "Quotas are counted per project and reset on the first day of each month, at midnight UTC, whatever the plan of the project is.",
};

/** The scripted model: one reply per document, by the document named in the prompt. */
function reply(req: RecordedRequest): { content: string } {
  const user = req.body.messages.find((m) => m.role === "user")?.content ?? "";
  const doc = /^Document: (\S+)/u.exec(user)?.[1] ?? "";
  const json = (question: string, key_facts: string[], quote: string, kind = "fact") =>
    ({ content: JSON.stringify({ question, answer: `About ${key_facts[0] ?? "it"}.`, key_facts, quote, kind }) }) as const;
  switch (doc) {
    case "billing/grace-copy.md":
      return json(
        "How long do resources keep running after the balance reaches 0?",
        ["72 hours"],
        "Once the balance is at 0, resources keep running for a grace period of 72 hours before they stop.",
        "number",
      );
    case "billing/grace.md": // 10 of its 11 words are those of the question above (Jaccard 10/12 = 0.83): a near-duplicate
      return json("How long do resources keep running after the balance reaches zero?", ["72 hours"], "Your resources keep running during a grace period of 72 hours.", "number");
    case "postgres/port.md": // "6432" is not in the passage: not answerable from it
      return json("Which port does the connection pooler use?", ["6432"], "Managed Postgres listens on port 5432.");
    case "guide.html":
      return json("For how long are nightly backups kept?", ["14 days"], "Backups run every night at 02:00 UTC and are kept for 14 days.", "number");
    case "self.md":
      return json("What does this passage say about quotas?", ["first day of each month"], "Quotas are counted per project.");
    default: // limits.txt: no JSON, twice
      return { content: "I am sorry, I cannot help with that." };
  }
}

let dir: string;
let fake: Awaited<ReturnType<typeof startFakeOpenAI>>;
beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), "ragmeter-draft-docs-"));
  for (const [id, text] of Object.entries(DOCS)) {
    await mkdir(path.dirname(path.join(dir, "docs", id)), { recursive: true });
    await writeFile(path.join(dir, "docs", id), text);
  }
  fake = await startFakeOpenAI((req) => reply(req));
});
afterAll(async () => {
  await fake?.close();
  await rm(dir, { recursive: true, force: true });
});

describe("golden draft --from-docs", () => {
  it("keeps what a reader could answer from its passage, drops the rest by reason, and the file passes golden check", async () => {
    const out = path.join(dir, "draft.jsonl");
    const env = { OPENAI_BASE_URL: fake.baseURL, RAGMETER_JUDGE_MODEL: "drafter-1", OPENAI_API_KEY: "k", RAGMETER_HOME: path.join(dir, "home") };
    const r = await cli(["golden", "draft", "--from-docs", path.join(dir, "docs"), "--out", out], env);
    expect(r.code, r.err).toBe(0);
    expect(r.out).toContain(
      `review file: ${out}\n6 proposed from 6 passages of 6 documents, 2 kept, 4 dropped (no_reply 1, not_self_contained 1, not_answerable 1, near_duplicate 1)`,
    );
    expect(r.out).toContain("  dropped 1: a reader could not answer it from the passage (a key fact not in it, or none given)");
    // five replies read at once, the unreadable one asked twice
    expect(fake.requests).toHaveLength(7);
    expect(r.out).toContain("LLM drafter-1: 7 calls, tokens in 700 / out 140");
    expect(fake.requests[0]?.body.model).toBe("drafter-1");
    expect(fake.requests[0]?.body.temperature).toBe(0);

    const set = await parseGoldenSet(await readFile(out, "utf8"), out);
    expect(set.items.map((i) => [i.question, i.expected_source, i.expected_substring, i.key_facts, i.tags, i.unconfirmed])).toEqual([
      [
        "How long do resources keep running after the balance reaches 0?",
        "billing/grace-copy.md",
        "Once the balance is at 0, resources keep running for a grace period of 72 hours before they stop.",
        ["72 hours"],
        ["drafted:docs", "kind:number"],
        true,
      ],
      [
        "For how long are nightly backups kept?",
        "guide.html",
        "Backups run every night at 02:00 UTC and are kept for 14 days.",
        ["14 days"],
        ["drafted:docs", "kind:number"],
        true,
      ],
    ]);
    // the passage of the HTML document is its text: the style sheet is not in it
    const htmlPrompt = fake.requests.find((q) => q.body.messages[1]?.content.startsWith("Document: guide.html"))?.body.messages[1]?.content ?? "";
    expect(htmlPrompt).toContain("Backups run every night at 02:00 UTC");
    expect(htmlPrompt).not.toContain("color: red");

    const check = await cli(["golden", "check", out, "--corpus", path.join(dir, "docs")]);
    expect(check.code, check.out + check.err).toBe(0);
    expect(check.out).toContain("substrings: all 2 found exactly once in");
    expect(check.out).toContain("duplicate questions: none");
    expect(check.err).toContain("warning: 2 of 2 items unconfirmed");

    // the review file is not replaced without --force
    const again = await cli(["golden", "draft", "--from-docs", path.join(dir, "docs"), "--out", out], env);
    expect(again.code).toBe(2);
    expect(again.err.trim()).toBe(`ragmeter: golden draft: --out ${out} exists: not overwritten (a reviewed file would be lost; --force overwrites)`);
  }, 60_000);

  it("reads a JSONL file of {id, text}", async () => {
    const file = path.join(dir, "docs.jsonl");
    await writeFile(
      file,
      `${JSON.stringify({ id: "guide.html", text: "Backups run every night at 02:00 UTC and are kept for 14 days. Restoring a backup creates a new instance next to the old one." })}\n`,
    );
    const out = path.join(dir, "draft-jsonl.jsonl");
    const r = await cli(["golden", "draft", "--from-docs", file, "--out", out], {
      OPENAI_BASE_URL: fake.baseURL,
      RAGMETER_JUDGE_MODEL: "drafter-1",
      RAGMETER_HOME: path.join(dir, "home"),
    });
    expect(r.code, r.err).toBe(0);
    expect(r.out).toContain("1 proposed from 1 passage of 1 document, 1 kept, 0 dropped");
  }, 60_000);

  it("without a judge endpoint: one line naming what to set, exit 2", async () => {
    const r = await cli(["golden", "draft", "--from-docs", path.join(dir, "docs"), "--out", path.join(dir, "none.jsonl")], { RAGMETER_HOME: path.join(dir, "home") });
    expect(r.code).toBe(2);
    expect(r.err.trim()).toBe(
      "ragmeter: golden draft --from-docs needs an LLM to write the questions: set OPENAI_BASE_URL and RAGMETER_JUDGE_MODEL (the LLM judge's endpoint, and OPENAI_API_KEY if it needs one)",
    );
  });

  it("a JSONL line without text names the line and the field", async () => {
    const file = path.join(dir, "bad.jsonl");
    await writeFile(file, '{"id": "a", "text": "fine"}\n{"id": "b"}\n');
    const r = await cli(["golden", "draft", "--from-docs", file], { OPENAI_BASE_URL: fake.baseURL, RAGMETER_JUDGE_MODEL: "m", RAGMETER_HOME: path.join(dir, "home") });
    expect(r.code).toBe(2);
    expect(r.err.trim()).toBe(`ragmeter: golden draft: --from-docs ${file}:2: field "text": Invalid input: expected string, received undefined`);
  });
});
