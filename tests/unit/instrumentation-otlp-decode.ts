// Test helper: decodes OTLP/HTTP trace bodies (protobuf and JSON) into plain spans.
// Written from opentelemetry-proto (common/v1, resource/v1, trace/v1, collector/trace/v1);
// field names and numbers are the protocol's. Used until the collector exports its decoder.
import protobuf from 'protobufjs';

type Field = { type: string; id: number; rule?: 'repeated' };
const f = (type: string, id: number): Field => ({ type, id });
const rep = (type: string, id: number): Field => ({ type, id, rule: 'repeated' });

const root = protobuf.Root.fromJSON({
  nested: {
    otlp: {
      nested: {
        AnyValue: {
          oneofs: {
            value: { oneof: ['stringValue', 'boolValue', 'intValue', 'doubleValue', 'arrayValue', 'kvlistValue', 'bytesValue'] },
          },
          fields: {
            stringValue: f('string', 1),
            boolValue: f('bool', 2),
            intValue: f('int64', 3),
            doubleValue: f('double', 4),
            arrayValue: f('ArrayValue', 5),
            kvlistValue: f('KeyValueList', 6),
            bytesValue: f('bytes', 7),
          },
        },
        ArrayValue: { fields: { values: rep('AnyValue', 1) } },
        KeyValueList: { fields: { values: rep('KeyValue', 1) } },
        KeyValue: { fields: { key: f('string', 1), value: f('AnyValue', 2) } },
        InstrumentationScope: { fields: { name: f('string', 1), version: f('string', 2), attributes: rep('KeyValue', 3) } },
        Resource: { fields: { attributes: rep('KeyValue', 1), droppedAttributesCount: f('uint32', 2) } },
        Status: { fields: { message: f('string', 2), code: f('int32', 3) } },
        Event: { fields: { timeUnixNano: f('fixed64', 1), name: f('string', 2), attributes: rep('KeyValue', 3) } },
        Link: { fields: { traceId: f('bytes', 1), spanId: f('bytes', 2), traceState: f('string', 3), attributes: rep('KeyValue', 4) } },
        Span: {
          fields: {
            traceId: f('bytes', 1),
            spanId: f('bytes', 2),
            traceState: f('string', 3),
            parentSpanId: f('bytes', 4),
            name: f('string', 5),
            kind: f('int32', 6),
            startTimeUnixNano: f('fixed64', 7),
            endTimeUnixNano: f('fixed64', 8),
            attributes: rep('KeyValue', 9),
            events: rep('Event', 11),
            links: rep('Link', 13),
            status: f('Status', 15),
            flags: f('fixed32', 16),
          },
        },
        ScopeSpans: { fields: { scope: f('InstrumentationScope', 1), spans: rep('Span', 2), schemaUrl: f('string', 3) } },
        ResourceSpans: { fields: { resource: f('Resource', 1), scopeSpans: rep('ScopeSpans', 2), schemaUrl: f('string', 3) } },
        ExportTraceServiceRequest: { fields: { resourceSpans: rep('ResourceSpans', 1) } },
      },
    },
  },
});
const ExportTraceServiceRequest = root.lookupType('otlp.ExportTraceServiceRequest');

/** A span as the scorer needs it: ids in lower-case hex, attributes as plain values. */
export interface DecodedSpan {
  traceId: string;
  spanId: string;
  parentSpanId: string;
  name: string;
  kind: number;
  attributes: Record<string, unknown>;
  resource: Record<string, unknown>;
}

type Json = Record<string, unknown>;

function anyValue(v: Json | undefined): unknown {
  if (v === undefined || v === null) return undefined;
  if ('stringValue' in v) return v['stringValue'];
  if ('boolValue' in v) return v['boolValue'];
  if ('intValue' in v) return Number(v['intValue']);
  if ('doubleValue' in v) return Number(v['doubleValue']);
  if ('arrayValue' in v) return (((v['arrayValue'] as Json)['values'] as Json[] | undefined) ?? []).map(anyValue);
  if ('kvlistValue' in v) return attributes(((v['kvlistValue'] as Json)['values'] as Json[] | undefined) ?? []);
  return undefined;
}

function attributes(list: Json[] | undefined): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const kv of list ?? []) out[String(kv['key'])] = anyValue(kv['value'] as Json | undefined);
  return out;
}

function hex(v: unknown): string {
  if (v === undefined || v === null || v === '') return '';
  if (typeof v === 'string') return v.toLowerCase(); // OTLP/JSON: ids are hex strings
  return Buffer.from(v as Uint8Array).toString('hex');
}

function flatten(request: Json): DecodedSpan[] {
  const spans: DecodedSpan[] = [];
  for (const rs of (request['resourceSpans'] as Json[] | undefined) ?? []) {
    const resource = attributes(((rs['resource'] as Json | undefined)?.['attributes'] as Json[] | undefined) ?? []);
    for (const ss of (rs['scopeSpans'] as Json[] | undefined) ?? []) {
      for (const s of (ss['spans'] as Json[] | undefined) ?? []) {
        spans.push({
          traceId: hex(s['traceId']),
          spanId: hex(s['spanId']),
          parentSpanId: hex(s['parentSpanId']),
          name: String(s['name']),
          kind: Number(s['kind'] ?? 0),
          attributes: attributes(s['attributes'] as Json[] | undefined),
          resource,
        });
      }
    }
  }
  return spans;
}

/** Decodes an `application/x-protobuf` ExportTraceServiceRequest body. */
export function decodeProtobufTraces(body: Uint8Array): DecodedSpan[] {
  const message = ExportTraceServiceRequest.decode(body);
  const plain = ExportTraceServiceRequest.toObject(message, { longs: String });
  return flatten(plain as Json);
}

/** Decodes an `application/json` (OTLP/JSON) ExportTraceServiceRequest body. */
export function decodeJsonTraces(body: Uint8Array | string): DecodedSpan[] {
  const text = typeof body === 'string' ? body : new TextDecoder().decode(body);
  return flatten(JSON.parse(text) as Json);
}

/** Flattens the collector's decoded `TraceRequest` (bigint ints, hex ids) into {@link DecodedSpan}s. */
export function fromCollectorRequest(request: unknown): DecodedSpan[] {
  const plain = JSON.parse(
    JSON.stringify(request, (_k, v: unknown) => (typeof v === 'bigint' ? v.toString() : v)),
  ) as Json;
  return flatten(plain);
}

/** What the scorer extracts from one trace (design §2), from the GenAI attributes. */
export interface ExtractedInteraction {
  traceId: string;
  question: string | undefined;
  documents: Array<{ id: string; document_id?: string; score?: number; content?: string }>;
  answer: string | undefined;
  goldenId: unknown;
  runId: unknown;
  pipelineVersion: unknown;
}

export function extractInteraction(spans: DecodedSpan[]): ExtractedInteraction {
  const retrieval = spans.find((s) => s.attributes['gen_ai.operation.name'] === 'retrieval');
  const generation = spans.find((s) => s.attributes['gen_ai.operation.name'] === 'chat');
  const output = generation?.attributes['gen_ai.output.messages'];
  const answer =
    typeof output === 'string'
      ? (JSON.parse(output) as Array<{ parts: Array<{ content: string }> }>)[0]?.parts[0]?.content
      : undefined;
  const docs = retrieval?.attributes['gen_ai.retrieval.documents'];
  return {
    traceId: retrieval?.traceId ?? '',
    question: retrieval?.attributes['gen_ai.retrieval.query.text'] as string | undefined,
    documents: typeof docs === 'string' ? (JSON.parse(docs) as ExtractedInteraction['documents']) : [],
    answer,
    goldenId: retrieval?.attributes['ragmeter.golden.id'],
    runId: retrieval?.attributes['ragmeter.run.id'],
    pipelineVersion: retrieval?.attributes['ragmeter.pipeline.version'],
  };
}
