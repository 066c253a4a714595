import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";

const read = async (req: IncomingMessage): Promise<Buffer> => {
  const chunks: Buffer[] = [];
  for await (const c of req) chunks.push(c as Buffer);
  return Buffer.concat(chunks);
};
const listen = async (server: Server): Promise<string> => {
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
};
const close = (server: Server): Promise<void> => new Promise((resolve) => server.close(() => resolve()));

/** One OTLP/HTTP export request as received. */
export interface OtlpBody {
  readonly signal: "traces" | "logs";
  readonly contentType: string;
  readonly body: Buffer;
}

/** A minimal OTLP/HTTP receiver: keeps the bodies posted to /v1/traces and /v1/logs, answers 200. */
export async function startOtlpReceiver(): Promise<{ url: string; bodies: OtlpBody[]; close(): Promise<void> }> {
  const bodies: OtlpBody[] = [];
  const server = createServer((req, res) => {
    void read(req).then((body) => {
      const signal = req.url === "/v1/traces" ? "traces" : req.url === "/v1/logs" ? "logs" : null;
      if (req.method !== "POST" || signal === null) {
        res.writeHead(404).end();
        return;
      }
      const contentType = req.headers["content-type"] ?? "";
      bodies.push({ signal, contentType, body });
      if (contentType.startsWith("application/json")) res.writeHead(200, { "content-type": "application/json" }).end("{}");
      else res.writeHead(200, { "content-type": "application/x-protobuf" }).end();
    });
  });
  const url = await listen(server);
  return { url, bodies, close: () => close(server) };
}

interface ChatRequest {
  model: string;
  messages: { role: string; content?: unknown; tool_calls?: unknown }[];
  tools?: { type: string; function: { name: string } }[];
  stream?: boolean;
}

/**
 * A local OpenAI-compatible chat-completions server for the convention drivers. Like
 * tests/helpers/openaiServer.ts, plus one thing the Vercel AI SDK driver needs: when the request
 * offers tools and holds no tool result yet, the reply is a call of the first tool with
 * `search: <last user message>` as `query` — a model-written query, not the question (usage 300/10); otherwise the reply is `answer` (usage 321/54). The response model is the requested one
 * with `-2024-07-18` appended.
 */
export async function startChatServer(answer: string): Promise<{ baseURL: string; requests: ChatRequest[]; close(): Promise<void> }> {
  const requests: ChatRequest[] = [];
  const server = createServer((req, res) => {
    void read(req).then((raw) => {
      if (req.method !== "POST" || !req.url?.endsWith("/chat/completions")) {
        res.writeHead(404).end();
        return;
      }
      const body = JSON.parse(raw.toString("utf8")) as ChatRequest;
      requests.push(body);
      const n = requests.length;
      const hasToolResult = body.messages.some((m) => m.role === "tool");
      const tool = body.tools?.[0]?.function.name;
      const lastUser = [...body.messages].reverse().find((m) => m.role === "user");
      const userText = typeof lastUser?.content === "string" ? lastUser.content : JSON.stringify(lastUser?.content ?? "");
      const callTool = tool !== undefined && !hasToolResult;
      const message = callTool
        ? {
            role: "assistant",
            content: null,
            tool_calls: [{ id: `call_${n}`, type: "function", function: { name: tool, arguments: JSON.stringify({ query: `search: ${userText}` }) } }],
          }
        : { role: "assistant", content: answer };
      const usage = callTool ? { prompt_tokens: 300, completion_tokens: 10, total_tokens: 310 } : { prompt_tokens: 321, completion_tokens: 54, total_tokens: 375 };
      res.writeHead(200, { "content-type": "application/json" }).end(
        JSON.stringify({
          id: `chatcmpl-${n}`,
          object: "chat.completion",
          created: 1_764_460_800,
          model: `${body.model}-2024-07-18`,
          choices: [{ index: 0, finish_reason: callTool ? "tool_calls" : "stop", message }],
          usage,
        }),
      );
    });
  });
  const url = await listen(server);
  return { baseURL: `${url}/v1`, requests, close: () => close(server) };
}
