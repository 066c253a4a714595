import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";

/** A chat completion request as the fake server received it. */
export interface RecordedRequest {
  readonly body: {
    model: string;
    temperature?: number;
    messages: { role: string; content: string }[];
    response_format?: unknown;
    max_tokens?: number | null;
    max_completion_tokens?: number | null;
  };
}

/** What the script returns for a request: reply text, or an HTTP error. */
export type ScriptedReply =
  | {
      content: string;
      delayMs?: number;
      /** `finish_reason` of the choice (default "stop"); llama.cpp sends "length" for a reply cut by `max_tokens`. */
      finishReason?: string;
      /** The usage block (default 100 prompt + 20 completion tokens). */
      usage?: { prompt_tokens: number; completion_tokens: number };
      /** The choice's `logprobs.content` (none by default), as a server that was asked for them sends. */
      logprobs?: readonly unknown[];
    }
  | { status: number; body?: string; headers?: Record<string, string> };

/**
 * A local OpenAI-compatible server (`POST /v1/chat/completions`) playing scripted replies — the
 * only stand-in the project allows: code under test talks to it through the real `openai` client.
 */
export async function startFakeOpenAI(
  script: (req: RecordedRequest, n: number) => ScriptedReply,
): Promise<{ baseURL: string; requests: RecordedRequest[]; close(): Promise<void> }> {
  const requests: RecordedRequest[] = [];
  const read = async (req: IncomingMessage): Promise<string> => {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    return Buffer.concat(chunks).toString("utf8");
  };
  const server: Server = createServer((req, res) => {
    void (async () => {
      if (req.method !== "POST" || !req.url?.endsWith("/chat/completions")) {
        res.writeHead(404).end();
        return;
      }
      const rec: RecordedRequest = { body: JSON.parse(await read(req)) as RecordedRequest["body"] };
      requests.push(rec);
      const r = script(rec, requests.length);
      if ("status" in r) {
        res.writeHead(r.status, { "content-type": "application/json", ...(r.headers ?? {}) }).end(r.body ?? JSON.stringify({ error: { message: "scripted error" } }));
        return;
      }
      if (r.delayMs) await new Promise((s) => setTimeout(s, r.delayMs));
      res.writeHead(200, { "content-type": "application/json" }).end(
        JSON.stringify({
          id: `chatcmpl-${requests.length}`,
          object: "chat.completion",
          created: 1_764_460_800,
          model: rec.body.model,
          choices: [
            {
              index: 0,
              finish_reason: r.finishReason ?? "stop",
              message: { role: "assistant", content: r.content },
              ...(r.logprobs ? { logprobs: { content: r.logprobs } } : {}),
            },
          ],
          usage: r.usage ? { ...r.usage, total_tokens: r.usage.prompt_tokens + r.usage.completion_tokens } : { prompt_tokens: 100, completion_tokens: 20, total_tokens: 120 },
        }),
      );
    })();
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseURL: `http://127.0.0.1:${port}/v1`,
    requests,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
