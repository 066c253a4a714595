import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";

/** A target reply by question, or an HTTP status to fail with. */
export type FixtureReply = { answer: string; contexts: { id: string; document_id: string; text: string; score: number }[] } | { status: number };

/** An HTTP target answering `POST /ask` from a fixed table; records the headers it received. */
export async function startFixtureTarget(
  table: Record<string, FixtureReply>,
): Promise<{ url: string; headers: Record<string, string | string[] | undefined>[]; close(): Promise<void> }> {
  const headers: Record<string, string | string[] | undefined>[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      headers.push(req.headers);
      const { question } = JSON.parse(Buffer.concat(chunks).toString("utf8")) as { question: string };
      const r = table[question];
      if (!r) return void res.writeHead(404).end("unknown question");
      if ("status" in r) return void res.writeHead(r.status).end("boom");
      res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(r));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}/ask`, headers, close: () => new Promise<void>((r) => server.close(() => r())) };
}
