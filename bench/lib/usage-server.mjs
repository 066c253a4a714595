// A local OpenAI-compatible server that records usage (bench/judges/ragas.mjs): answers
// /v1/chat/completions with a plausible, schema-valid reply for ragmeter's judges (grounding,
// relevance, claims, verify) and for Ragas's prompts (statements, NLI verdicts, generated question),
// and /v1/embeddings with deterministic vectors. Every call's tokens are counted here, with one
// tokenizer (o200k_base, gpt-tokenizer) over the exact messages received (plus the schema sent as
// `response_format` / `tools`) and the exact reply sent, per tool (the URL's first path segment:
// http://127.0.0.1:PORT/<tool>/v1).
import { createHash } from "node:crypto";
import { createServer } from "node:http";
import { countTokens } from "gpt-tokenizer/encoding/o200k_base";

const tok = (s) => (typeof s === "string" && s.length > 0 ? countTokens(s) : 0);

/** Text of a message's content (string or parts). */
function text(content) {
  if (typeof content === "string") return content;
  if (Array.isArray(content)) return content.map((p) => (typeof p === "string" ? p : (p?.text ?? ""))).join("");
  return "";
}

/** Sentences of an answer (one fact per sentence in the shipped set). */
function sentences(answer) {
  const seg = new Intl.Segmenter(undefined, { granularity: "sentence" });
  return [...seg.segment(answer)].map((s) => s.segment.trim()).filter((s) => s.length > 0);
}

/** The last JSON object of `s` that starts at one of the markers (Ragas prompts end with the input as JSON). */
function lastJsonAfter(s, markers) {
  for (const m of markers) {
    const at = s.lastIndexOf(m);
    if (at < 0) continue;
    const from = s.indexOf("{", at);
    if (from < 0) continue;
    // Scan for the matching brace, strings respected.
    let depth = 0;
    let inStr = false;
    for (let i = from; i < s.length; i++) {
      const ch = s[i];
      if (inStr) {
        if (ch === "\\") i++;
        else if (ch === '"') inStr = false;
      } else if (ch === '"') inStr = true;
      else if (ch === "{") depth++;
      else if (ch === "}" && --depth === 0) {
        try {
          return JSON.parse(s.slice(from, i + 1));
        } catch {
          break;
        }
      }
    }
  }
  return null;
}

const section = (s, name) => {
  const m = new RegExp(`${name}:\\n([\\s\\S]*?)(?:\\n\\n[A-Z]+:\\n|$)`, "u").exec(s);
  return m ? (m[1] ?? "").trim() : "";
};

/** The reply (a JSON string) for one chat request. */
function replyFor(system, user) {
  const all = `${system}\n${user}`;
  // ragmeter
  if (system.startsWith("You rate whether an ANSWER")) return JSON.stringify({ score: 3, reason: "The answer addresses the question asked." });
  if (system.startsWith("You check numbered CLAIMS")) {
    // ragmeter's claim verdicts (issue 40): one verdict per numbered claim, SUPPORTED by the first passage
    const ids = [...user.matchAll(/<passage id="([^"]*)">/gu)].map((m) => m[1]);
    const n = Number(/CLAIMS \((\d+)\):/u.exec(user)?.[1] ?? 0);
    return JSON.stringify({ verdicts: Array.from({ length: n }, () => ({ verdict: "SUPPORTED", chunk_ids: ids.slice(0, 1) })) });
  }
  if (system.startsWith("You check whether an answer is grounded")) {
    const ids = [...user.matchAll(/<passage id="([^"]*)">/gu)].map((m) => m[1]);
    const claims = sentences(section(user, "ANSWER")).map((claim) => ({
      claim,
      reasoning: "A passage states this fact.",
      verdict: ids.length > 0 ? "SUPPORTED" : "UNSUPPORTED",
      chunk_ids: ids.length > 0 ? [ids[0]] : [],
    }));
    return JSON.stringify({ claims });
  }
  if (system.startsWith("You split an answer into atomic")) return JSON.stringify({ claims: sentences(section(user, "ANSWER")) });
  if (system.startsWith("You check given factual claims")) {
    const ids = [...user.matchAll(/<passage id="([^"]*)">/gu)].map((m) => m[1]);
    const list = section(user, "CLAIMS")
      .split("\n")
      .map((l) => l.replace(/^\s*\d+[.)]\s*/u, "").trim())
      .filter(Boolean);
    return JSON.stringify({ claims: list.map((claim) => ({ claim, reasoning: "A passage states this fact.", verdict: "SUPPORTED", chunk_ids: ids.slice(0, 1) })) });
  }
  // Ragas: the input is the last JSON object after "input:" (legacy PydanticPrompt) or the whole user text.
  const input = lastJsonAfter(all, ["Now perform the same with the following input", "-----------------------------", "input:", "Input:"]) ?? {};
  if (Array.isArray(input.statements) && typeof input.context === "string") {
    return JSON.stringify({ statements: input.statements.map((statement) => ({ statement, reason: "The context states this.", verdict: 1 })) });
  }
  if (typeof input.response === "string" && /noncommittal/iu.test(all)) {
    const head = sentences(input.response)[0] ?? input.response;
    return JSON.stringify({ question: `What does this say: ${head.slice(0, 80)}?`, noncommittal: 0 });
  }
  if (typeof input.answer === "string" && /statements/iu.test(all)) return JSON.stringify({ statements: sentences(input.answer) });
  return JSON.stringify({ error: "unrecognised prompt" });
}

/** A deterministic unit vector for `s` (64 dimensions). */
function vector(s) {
  const h = createHash("sha512").update(s).digest();
  const v = [...h].map((b) => b / 255 - 0.5);
  const n = Math.hypot(...v);
  return v.map((x) => x / n);
}

/** Starts the server; resolves to {url(tool), usage, unknown, close()}. */
export function startUsageServer() {
  const usage = {};
  const unknown = [];
  const rec = (tool) => {
    usage[tool] ??= { chat_calls: 0, prompt_tokens: 0, schema_tokens: 0, completion_tokens: 0, embedding_calls: 0, embedding_tokens: 0 };
    return usage[tool];
  };
  const server = createServer((req, res) => {
    const chunks = [];
    req.on("data", (c) => chunks.push(c));
    req.on("end", () => {
      const [, tool = "unknown", , endpoint = ""] = (req.url ?? "").split("?")[0].split("/");
      let body;
      try {
        body = JSON.parse(Buffer.concat(chunks).toString() || "{}");
      } catch {
        res.writeHead(400).end("{}");
        return;
      }
      const r = rec(tool);
      if (endpoint === "embeddings") {
        const inputs = Array.isArray(body.input) ? body.input : [body.input];
        r.embedding_calls++;
        for (const i of inputs) r.embedding_tokens += tok(typeof i === "string" ? i : "");
        res.writeHead(200, { "content-type": "application/json" }).end(
          JSON.stringify({
            object: "list",
            model: body.model,
            data: inputs.map((i, index) => ({ object: "embedding", index, embedding: vector(String(i)) })),
            usage: { prompt_tokens: 0, total_tokens: 0 },
          }),
        );
        return;
      }
      if (endpoint !== "chat") {
        res.writeHead(404, { "content-type": "application/json" }).end('{"error":{"message":"not found"}}');
        return;
      }
      const messages = body.messages ?? [];
      const system = messages
        .filter((m) => m.role === "system")
        .map((m) => text(m.content))
        .join("\n");
      const user = messages
        .filter((m) => m.role !== "system")
        .map((m) => text(m.content))
        .join("\n");
      const n = Math.max(1, Number(body.n ?? 1));
      const content = replyFor(system, user);
      if (content.includes("unrecognised prompt")) unknown.push({ tool, system: system.slice(0, 300), user: user.slice(0, 300) });
      const promptTokens = messages.reduce((a, m) => a + tok(text(m.content)), 0);
      const schema = body.response_format?.json_schema ?? body.tools ?? null;
      const schemaTokens = schema ? tok(JSON.stringify(schema)) : 0;
      const tool0 = Array.isArray(body.tools) && body.tools.length > 0 ? body.tools[0].function?.name : null;
      const message = tool0
        ? { role: "assistant", content: null, tool_calls: [{ id: "call_0", type: "function", function: { name: tool0, arguments: content } }] }
        : { role: "assistant", content };
      const completion = tok(content) * n;
      r.chat_calls++;
      r.prompt_tokens += promptTokens;
      r.schema_tokens += schemaTokens;
      r.completion_tokens += completion;
      res.writeHead(200, { "content-type": "application/json" }).end(
        JSON.stringify({
          id: `chatcmpl-${r.chat_calls}`,
          object: "chat.completion",
          created: 0,
          model: body.model ?? "usage",
          choices: Array.from({ length: n }, (_, index) => ({ index, finish_reason: tool0 ? "tool_calls" : "stop", message })),
          usage: { prompt_tokens: promptTokens + schemaTokens, completion_tokens: completion, total_tokens: promptTokens + schemaTokens + completion },
        }),
      );
    });
  });
  server.keepAliveTimeout = 5_000;
  server.requestTimeout = 30_000;
  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address();
      resolve({
        url: (tool) => `http://127.0.0.1:${port}/${tool}/v1`,
        usage,
        unknown,
        close: () =>
          new Promise((done) => {
            server.closeAllConnections();
            server.close(() => done());
          }),
      });
    });
  });
}
