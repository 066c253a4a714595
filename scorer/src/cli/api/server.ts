import { createHash, timingSafeEqual } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import { createServer as createHttpsServer, type Server as HttpsServer } from "node:https";
import { type Logger, RagmeterError, readApiRefusal, readTlsMaterial, reloadTlsOnChange, type TlsFiles } from "@ragmeter/runtime";
import Fastify, { type FastifyInstance, type FastifyPluginAsync, type FastifyReply, type FastifyRequest } from "fastify";
import { z } from "zod";
import { BOOTSTRAP_RESAMPLES, DEFAULT_SEED } from "../../runs/bootstrap.js";
import { chartJsSource, renderReportHtml } from "../format/html.js";
import { renderLiveSection } from "../format/liveHtml.js";
import type { Reader } from "./reader.js";

/** Seconds between reloads of the HTML report served at `/`. */
const REPORT_REFRESH_SECONDS = 15;

/** Default window of `/api/live` and of the report's live section: one hour. */
export const DEFAULT_LIVE_WINDOW_MS = 3_600_000;

const liveQuery = z
  .object({
    window_ms: z.coerce
      .number()
      .int()
      .positive()
      .max(366 * 86_400_000)
      .default(DEFAULT_LIVE_WINDOW_MS),
    service: z.string().min(1).optional(),
    pipeline_version: z.string().min(1).optional(),
  })
  .strict();
const compareQuery = z
  .object({
    a: z.string().min(1),
    b: z.string().min(1),
    seed: z.coerce
      .number()
      .int()
      .min(0)
      .max(2 ** 31 - 1)
      .default(DEFAULT_SEED),
    // The bootstrap's work is resamples × paired questions, on the thread that also serves `serve`'s
    // receiver: 1,000,000 resamples of 1,000 questions held it 59 s per metric (issue 39). Through the
    // API at most the default B; more on the store itself (`ragmeter compare` with serve stopped).
    resamples: z.coerce
      .number()
      .int()
      .min(100)
      .max(
        BOOTSTRAP_RESAMPLES,
        `at most ${BOOTSTRAP_RESAMPLES} through the read API (1,000 questions × 10,000 resamples: 0.6 s per metric); for more, run \`ragmeter compare\` on the store itself`,
      )
      .default(BOOTSTRAP_RESAMPLES),
  })
  .strict();
const reportQuery = z.object({ golden_set: z.string().min(1).optional() }).strict();
const runParams = z.object({ id: z.string().min(1) });

/** A query parameter failed validation (400, naming the parameter). */
class QueryError extends RagmeterError {
  override readonly name = "QueryError";
  constructor(message: string) {
    super(message, { code: "input" });
  }
}

function parse<T>(schema: z.ZodType<T>, value: unknown, where: string): T {
  const r = schema.safeParse(value);
  if (r.success) return r.data;
  const issue = r.error.issues[0];
  throw new QueryError(`${where} ${issue?.path.join(".") || "(query)"}: ${issue?.message ?? "invalid"}`);
}

const digest = (s: string): Buffer => createHash("sha256").update(s, "utf8").digest();

/** Options of the read API. */
export interface ReadApiOptions {
  /** Bearer token required on every route when set (the collector's `RAGMETER_COLLECTOR_TOKEN`). */
  readonly token?: string;
}

/** Options of the read API served on `host` (its listen address). */
interface ReadApiServing extends ReadApiOptions {
  /**
   * The listen address: on one other than loopback without a token every route answers 403 with
   * the reason (`readApiRefusal`, issue 39), captured content being what the API serves.
   */
  readonly host: string;
}

/**
 * The read API as a fastify plugin (design §3): `GET /api/runs`, `/api/runs/:id`,
 * `/api/runs/:id/questions`, `/api/compare?a&b[&seed&resamples]`, `/api/live[?window_ms&service&pipeline_version]`,
 * `/api/report[?golden_set]`, and the HTML report (with its live section, reloading itself) at
 * `/[?window_ms&service&pipeline_version]`.
 * Errors are JSON `{error}`: 400 for a bad query parameter, 401 without the token, 403 on every route
 * when listening on an address other than loopback without a token, 404 for an unknown run.
 */
function readApiPlugin(reader: Reader, options: ReadApiServing): FastifyPluginAsync {
  const expected = options.token === undefined ? null : digest(`Bearer ${options.token}`);
  const refusal = readApiRefusal(options.host, options.token !== undefined);
  return async (app) => {
    app.setErrorHandler((err: Error, _req, reply) => {
      if (err instanceof QueryError) return reply.code(400).send({ error: err.message });
      // fastify's own refusals of a request (a bad URL, a body it cannot parse, …) keep their 4xx.
      const status = (err as { statusCode?: number }).statusCode;
      if (status !== undefined && status >= 400 && status < 500) return reply.code(status).send({ error: err.message });
      return reply.code(500).send({ error: `${err.name}: ${err.message}` });
    });
    app.addHook("onRequest", async (req: FastifyRequest, reply: FastifyReply) => {
      if (refusal !== null) return reply.code(403).send({ error: refusal });
      if (!expected) return;
      const got = digest((req.headers.authorization ?? "").replace(/^bearer(?= )/iu, "Bearer"));
      if (!timingSafeEqual(got, expected)) return reply.code(401).send({ error: "missing or invalid bearer token in the Authorization header (RAGMETER_COLLECTOR_TOKEN)" });
    });
    const notFound = (reply: FastifyReply, id: string) => reply.code(404).send({ error: `unknown run id: ${id}` });
    app.get("/api/runs", async () => reader.runs());
    app.get("/api/runs/:id", async (req, reply) => {
      const { id } = parse(runParams, req.params, "path");
      return (await reader.run(id)) ?? notFound(reply, id);
    });
    app.get("/api/runs/:id/questions", async (req, reply) => {
      const { id } = parse(runParams, req.params, "path");
      return (await reader.questions(id)) ?? notFound(reply, id);
    });
    app.get("/api/compare", async (req, reply) => {
      const q = parse(compareQuery, req.query, "query parameter");
      const c = await reader.compare(q.a, q.b, { seed: q.seed, resamples: q.resamples });
      return c ?? reply.code(404).send({ error: `unknown run id: ${q.a} or ${q.b}` });
    });
    app.get("/api/live", async (req) => {
      const q = parse(liveQuery, req.query, "query parameter");
      return reader.live({
        windowMs: q.window_ms,
        ...(q.service !== undefined ? { service: q.service } : {}),
        ...(q.pipeline_version !== undefined ? { pipelineVersion: q.pipeline_version } : {}),
      });
    });
    app.get("/api/report", async (req) => {
      const q = parse(reportQuery, req.query, "query parameter");
      return reader.report(q.golden_set !== undefined ? { goldenSet: q.golden_set } : {});
    });
    app.get("/", async (req, reply) => {
      const q = parse(liveQuery, req.query, "query parameter");
      const [data, live] = await Promise.all([
        reader.report({}),
        reader.live({
          windowMs: q.window_ms,
          ...(q.service !== undefined ? { service: q.service } : {}),
          ...(q.pipeline_version !== undefined ? { pipelineVersion: q.pipeline_version } : {}),
        }),
      ]);
      const html = renderReportHtml(data, chartJsSource(), {
        head: `<meta http-equiv="refresh" content="${REPORT_REFRESH_SECONDS}">`,
        sections: renderLiveSection(live),
      });
      return reply.type("text/html; charset=utf-8").send(html);
    });
  };
}

/**
 * The read API as routes of another server on the same port (`ragmeter serve` without `--api-port`):
 * a fastify instance that is never listened on; the collector's `node:http` server hands it every
 * request that is not OTLP or health (`CollectorDeps.routes`), and fastify's 404 answers the rest.
 */
export async function readApiRoutes(reader: Reader, options: ReadApiServing): Promise<{ handle(req: IncomingMessage, res: ServerResponse): void; close(): Promise<void> }> {
  const app: FastifyInstance = Fastify();
  await app.register(readApiPlugin(reader, options));
  await app.ready();
  return { handle: (req, res) => app.routing(req, res), close: () => app.close() };
}

/** HTTPS for a read API on its own port: the files (`RAGMETER_TLS_CERT_FILE`, `RAGMETER_TLS_KEY_FILE`) and where a reload is logged. */
export interface ReadApiTls {
  readonly files: TlsFiles;
  readonly log: Logger;
}

/**
 * A read API on its own port (`--api-port`), over HTTPS with `tls` (the certificate served again
 * when its files change).
 * @throws TlsSettingsError naming the setting of a TLS file that is wrong
 */
export async function startReadApi(
  reader: Reader,
  listen: { host: string; port: number },
  options: ReadApiOptions & { readonly tls?: ReadApiTls } = {},
): Promise<{ url: string; close(): Promise<void> }> {
  const { tls, ...api } = options;
  const material = tls === undefined ? null : readTlsMaterial(tls.files);
  let secure: HttpsServer | null = null;
  const app: FastifyInstance =
    material === null
      ? Fastify()
      : Fastify({
          serverFactory: (handler) => {
            secure = createHttpsServer({ cert: material.cert, key: material.key }, handler);
            return secure;
          },
        });
  await app.register(readApiPlugin(reader, { ...api, host: listen.host }));
  await app.listen({ host: listen.host, port: listen.port });
  const reloading = tls !== undefined && material !== null && secure !== null ? reloadTlsOnChange(secure, tls.files, material, tls.log) : null;
  const address = app.server.address();
  const port = typeof address === "object" && address ? address.port : listen.port;
  const host = listen.host === "0.0.0.0" || listen.host === "::" ? "127.0.0.1" : listen.host;
  return {
    url: `${material === null ? "http" : "https"}://${host.includes(":") ? `[${host}]` : host}:${port}`,
    close: async () => {
      reloading?.close();
      await app.close();
    },
  };
}
