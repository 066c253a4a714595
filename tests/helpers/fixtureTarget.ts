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

/**
 * The fixture replies of the four-question golden set (g1 refund window, g2 PostgreSQL port, g3 GPU
 * servers, g4 snapshot price): g1 right, g2 wrong answer with the right chunk at rank 3, g3 an
 * abstention, g4 an HTTP 500.
 */
export const FOUR_QUESTION_TABLE: Readonly<Record<string, FixtureReply>> = {
  "How many days is the refund window?": {
    answer: "Refunds are possible within 30 days.",
    contexts: [{ id: "billing/refunds.md#1", document_id: "billing/refunds.md", text: "Refunds are possible within 30 days of the payment.", score: 9.5 }],
  },
  "Which port does PostgreSQL listen on?": {
    answer: "PostgreSQL listens on port 5433.",
    contexts: [
      { id: "servers/ssh.md#1", document_id: "servers/ssh.md", text: "SSH listens on port 22.", score: 3 },
      { id: "postgres/connecting.md#1", document_id: "postgres/connecting.md", text: "Connections need TLS.", score: 2 },
      { id: "postgres/connecting.md#2", document_id: "postgres/connecting.md", text: "PostgreSQL listens on port 5432 by default.", score: 1 },
    ],
  },
  "Do you offer GPU servers?": { answer: "Sorry, I could not find that in the documentation.", contexts: [] },
  "What is the price of a snapshot?": { status: 500 },
};
