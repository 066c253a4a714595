// A local OpenAI-compatible judge for bench/scorer.mjs: answers every chat completion after a
// fixed delay (argv[2] ms) with a valid grounding or relevance verdict; prints its URL, and on the
// IPC message "report" sends {calls, seconds} (first request → last answer).
import { createServer } from "node:http";

const delayMs = Number(process.argv[2] ?? 200);
let calls = 0;
let first = null;
let last = null;
const server = createServer((req, res) => {
  const chunks = [];
  req.on("data", (c) => chunks.push(c));
  req.on("end", () => {
    calls++;
    first ??= performance.now();
    const body = JSON.parse(Buffer.concat(chunks).toString());
    const relevance = body.messages[0].content.startsWith("You rate");
    const content = relevance ? '{"score": 3, "reason": "addresses it"}' : '{"claims": ["Plan includes 2 vCPUs."], "verdicts": [{"verdict": "SUPPORTED", "chunk_ids": []}]}';
    setTimeout(() => {
      last = performance.now();
      res.writeHead(200, { "content-type": "application/json" }).end(
        JSON.stringify({
          id: "x",
          object: "chat.completion",
          created: 0,
          model: body.model,
          choices: [{ index: 0, finish_reason: "stop", message: { role: "assistant", content } }],
          usage: { prompt_tokens: 500, completion_tokens: 30, total_tokens: 530 },
        }),
      );
    }, delayMs);
  });
});
server.keepAliveTimeout = 60_000;
server.listen(0, "127.0.0.1", () => process.stdout.write(`http://127.0.0.1:${server.address().port}/v1\n`));
process.on("message", (m) => {
  if (m === "report") process.send({ calls, seconds: first === null ? 0 : (last - first) / 1000 });
});
