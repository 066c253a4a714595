import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";

/** A source as this service shapes it; `doc` may be left out (a service that gives chunk ids only). */
export interface OtherShapeSource {
  readonly chunk: string;
  readonly doc?: string;
  readonly content: string;
  readonly score: number;
}

/** One request the service received. */
export interface ReceivedRequest {
  readonly method: string;
  readonly url: string;
  readonly headers: Record<string, string | string[] | undefined>;
  readonly body: unknown;
}

/**
 * A RAG service not shaped like ragmeter's contract: `POST /search {"query", "top_k"}` or
 * `GET /search?q=…&top_k=…`, answering `{"response", "sources": [{chunk, doc, content, score}]}`
 * (the first `top_k` sources) from a table by question; `/broken` answers `{"result": …}`.
 */
export async function startOtherShapeService(
  table: Record<string, { response: string; sources: readonly OtherShapeSource[] }>,
): Promise<{ url: string; requests: ReceivedRequest[]; close(): Promise<void> }> {
  const requests: ReceivedRequest[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const text = Buffer.concat(chunks).toString("utf8");
      const body: unknown = text ? JSON.parse(text) : null;
      requests.push({ method: req.method ?? "", url: req.url ?? "", headers: req.headers, body });
      const u = new URL(req.url ?? "/", "http://x");
      if (u.pathname === "/broken") return void res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ result: "no answer field here" }));
      const b = (body ?? {}) as { query?: string; top_k?: unknown };
      const query = req.method === "GET" ? u.searchParams.get("q") : b.query;
      const topK = Number(req.method === "GET" ? u.searchParams.get("top_k") : b.top_k);
      const r = query ? table[query] : undefined;
      if (!r || !Number.isInteger(topK)) return void res.writeHead(400).end("bad request");
      res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ response: r.response, sources: r.sources.slice(0, topK) }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}`, requests, close: () => new Promise<void>((r) => server.close(() => r())) };
}
