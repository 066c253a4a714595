// A local OTLP/HTTP logs receiver that decodes what arrives with the official opentelemetry-proto
// files (otlp/proto, vendored) loaded by protobufjs at test time: independent of ragmeter's own
// decoder and generated code.
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { gunzipSync } from "node:zlib";
import protobuf from "protobufjs";

const PROTO_DIR = path.resolve(import.meta.dirname, "../../otlp/proto");

/** An attribute value as decoded: which OTLP AnyValue field carried it, and its value. */
interface DecodedValue {
  readonly kind: "string" | "int" | "double" | "bool" | "other";
  readonly value: string | number | boolean | null;
}

/** One received log record, with its resource and scope. */
export interface ReceivedRecord {
  readonly resource: Record<string, DecodedValue>;
  readonly scope: string;
  readonly eventName: string;
  readonly severityNumber: number;
  readonly severityText: string;
  /** Lower-case hex; "" when absent. */
  readonly traceId: string;
  readonly spanId: string;
  readonly attributes: Record<string, DecodedValue>;
  readonly hasBody: boolean;
}

let requestType: protobuf.Type | null = null;

/** ExportLogsServiceRequest from the vendored official .proto files. */
function exportLogsRequest(): protobuf.Type {
  if (requestType) return requestType;
  const root = new protobuf.Root();
  root.resolvePath = (_origin, target) => path.join(PROTO_DIR, target);
  root.loadSync("opentelemetry/proto/collector/logs/v1/logs_service.proto");
  requestType = root.lookupType("opentelemetry.proto.collector.logs.v1.ExportLogsServiceRequest");
  return requestType;
}

type AnyValue = { stringValue?: string; intValue?: string; doubleValue?: number; boolValue?: boolean };
type KeyValue = { key: string; value?: AnyValue };

function decodedValue(v: AnyValue | undefined): DecodedValue {
  if (v?.stringValue !== undefined) return { kind: "string", value: v.stringValue };
  if (v?.intValue !== undefined) return { kind: "int", value: Number(v.intValue) };
  if (v?.doubleValue !== undefined) return { kind: "double", value: v.doubleValue };
  if (v?.boolValue !== undefined) return { kind: "bool", value: v.boolValue };
  return { kind: "other", value: null };
}

const attrs = (kvs: readonly KeyValue[] | undefined): Record<string, DecodedValue> => Object.fromEntries((kvs ?? []).map((kv) => [kv.key, decodedValue(kv.value)]));
const hex = (b: Uint8Array | undefined): string => (b && b.length > 0 ? Buffer.from(b).toString("hex") : "");

/** Decodes one ExportLogsServiceRequest body (protobuf) into its records. */
function decodeWithOfficialProtos(body: Buffer): ReceivedRecord[] {
  const T = exportLogsRequest();
  const msg = T.toObject(T.decode(body), { longs: String, defaults: false, arrays: true }) as {
    resourceLogs?: {
      resource?: { attributes?: KeyValue[] };
      scopeLogs?: {
        scope?: { name?: string };
        logRecords?: {
          eventName?: string;
          severityNumber?: number;
          severityText?: string;
          traceId?: Uint8Array;
          spanId?: Uint8Array;
          attributes?: KeyValue[];
          body?: AnyValue;
        }[];
      }[];
    }[];
  };
  const out: ReceivedRecord[] = [];
  for (const rl of msg.resourceLogs ?? []) {
    const resource = attrs(rl.resource?.attributes);
    for (const sl of rl.scopeLogs ?? []) {
      for (const r of sl.logRecords ?? []) {
        out.push({
          resource,
          scope: sl.scope?.name ?? "",
          eventName: r.eventName ?? "",
          severityNumber: r.severityNumber ?? 0,
          severityText: r.severityText ?? "",
          traceId: hex(r.traceId),
          spanId: hex(r.spanId),
          attributes: attrs(r.attributes),
          hasBody: r.body !== undefined,
        });
      }
    }
  }
  return out;
}

/** A receiver on 127.0.0.1: records every POST to /v1/logs, decoded; answers 200 (an empty response message). */
export async function startLogsReceiver(): Promise<{
  readonly base: string;
  readonly records: ReceivedRecord[];
  readonly requests: { path: string; contentType: string; headers: Record<string, string | string[] | undefined> }[];
  close(): Promise<void>;
}> {
  const records: ReceivedRecord[] = [];
  const requests: { path: string; contentType: string; headers: Record<string, string | string[] | undefined> }[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const raw = Buffer.concat(chunks);
      requests.push({ path: req.url ?? "", contentType: req.headers["content-type"] ?? "", headers: req.headers });
      if (req.method !== "POST" || req.url !== "/v1/logs") return void res.writeHead(404).end();
      const body = req.headers["content-encoding"] === "gzip" ? gunzipSync(raw) : raw;
      records.push(...decodeWithOfficialProtos(body));
      res.writeHead(200, { "content-type": "application/x-protobuf" }).end();
    });
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const { port } = server.address() as AddressInfo;
  return { base: `http://127.0.0.1:${port}`, records, requests, close: () => new Promise<void>((r) => server.close(() => r())) };
}
