/**
 * The OTLP protobuf messages the collector reads and writes, as a protobufjs reflection root.
 *
 * Written from the OTLP specification (opentelemetry-proto: common/v1, resource/v1, trace/v1,
 * logs/v1, collector/{trace,logs}/v1) plus google.rpc.Status for error bodies. Field names and
 * numbers are the protocol's; message names are kept, packages are flattened into one namespace
 * because package names never appear on the wire.
 */
import protobuf from "protobufjs";

type Fields = Record<string, { type: string; id: number; rule?: "repeated" }>;

const f = (type: string, id: number): { type: string; id: number } => ({ type, id });
const rep = (type: string, id: number): { type: string; id: number; rule: "repeated" } => ({ type, id, rule: "repeated" });

const types: Record<string, { fields: Fields; oneofs?: Record<string, { oneof: string[] }> }> = {
  // opentelemetry.proto.common.v1
  AnyValue: {
    oneofs: { value: { oneof: ["stringValue", "boolValue", "intValue", "doubleValue", "arrayValue", "kvlistValue", "bytesValue"] } },
    fields: {
      stringValue: f("string", 1),
      boolValue: f("bool", 2),
      intValue: f("int64", 3),
      doubleValue: f("double", 4),
      arrayValue: f("ArrayValue", 5),
      kvlistValue: f("KeyValueList", 6),
      bytesValue: f("bytes", 7),
    },
  },
  ArrayValue: { fields: { values: rep("AnyValue", 1) } },
  KeyValueList: { fields: { values: rep("KeyValue", 1) } },
  KeyValue: { fields: { key: f("string", 1), value: f("AnyValue", 2) } },
  InstrumentationScope: {
    fields: { name: f("string", 1), version: f("string", 2), attributes: rep("KeyValue", 3), droppedAttributesCount: f("uint32", 4) },
  },
  EntityRef: {
    fields: { schemaUrl: f("string", 1), type: f("string", 2), idKeys: rep("string", 3), descriptionKeys: rep("string", 4) },
  },
  // opentelemetry.proto.resource.v1
  Resource: { fields: { attributes: rep("KeyValue", 1), droppedAttributesCount: f("uint32", 2), entityRefs: rep("EntityRef", 3) } },
  // opentelemetry.proto.trace.v1
  ResourceSpans: { fields: { resource: f("Resource", 1), scopeSpans: rep("ScopeSpans", 2), schemaUrl: f("string", 3) } },
  ScopeSpans: { fields: { scope: f("InstrumentationScope", 1), spans: rep("Span", 2), schemaUrl: f("string", 3) } },
  Span: {
    fields: {
      traceId: f("bytes", 1),
      spanId: f("bytes", 2),
      traceState: f("string", 3),
      parentSpanId: f("bytes", 4),
      name: f("string", 5),
      kind: f("int32", 6), // enum SpanKind; int32 has the same wire form and keeps unknown values
      startTimeUnixNano: f("fixed64", 7),
      endTimeUnixNano: f("fixed64", 8),
      attributes: rep("KeyValue", 9),
      droppedAttributesCount: f("uint32", 10),
      events: rep("Event", 11),
      droppedEventsCount: f("uint32", 12),
      links: rep("Link", 13),
      droppedLinksCount: f("uint32", 14),
      status: f("Status", 15),
      flags: f("fixed32", 16),
    },
  },
  Event: {
    fields: { timeUnixNano: f("fixed64", 1), name: f("string", 2), attributes: rep("KeyValue", 3), droppedAttributesCount: f("uint32", 4) },
  },
  Link: {
    fields: {
      traceId: f("bytes", 1),
      spanId: f("bytes", 2),
      traceState: f("string", 3),
      attributes: rep("KeyValue", 4),
      droppedAttributesCount: f("uint32", 5),
      flags: f("fixed32", 6),
    },
  },
  Status: { fields: { message: f("string", 2), code: f("int32", 3) } }, // code: enum StatusCode
  // opentelemetry.proto.logs.v1
  ResourceLogs: { fields: { resource: f("Resource", 1), scopeLogs: rep("ScopeLogs", 2), schemaUrl: f("string", 3) } },
  ScopeLogs: { fields: { scope: f("InstrumentationScope", 1), logRecords: rep("LogRecord", 2), schemaUrl: f("string", 3) } },
  LogRecord: {
    fields: {
      timeUnixNano: f("fixed64", 1),
      severityNumber: f("int32", 2), // enum SeverityNumber
      severityText: f("string", 3),
      body: f("AnyValue", 5),
      attributes: rep("KeyValue", 6),
      droppedAttributesCount: f("uint32", 7),
      flags: f("fixed32", 8),
      traceId: f("bytes", 9),
      spanId: f("bytes", 10),
      observedTimeUnixNano: f("fixed64", 11),
      eventName: f("string", 12),
    },
  },
  // opentelemetry.proto.collector.trace.v1 / logs.v1
  ExportTraceServiceRequest: { fields: { resourceSpans: rep("ResourceSpans", 1) } },
  ExportTraceServiceResponse: { fields: { partialSuccess: f("ExportTracePartialSuccess", 1) } },
  ExportTracePartialSuccess: { fields: { rejectedSpans: f("int64", 1), errorMessage: f("string", 2) } },
  ExportLogsServiceRequest: { fields: { resourceLogs: rep("ResourceLogs", 1) } },
  ExportLogsServiceResponse: { fields: { partialSuccess: f("ExportLogsPartialSuccess", 1) } },
  ExportLogsPartialSuccess: { fields: { rejectedLogRecords: f("int64", 1), errorMessage: f("string", 2) } },
  // google.rpc.Status and google.protobuf.Any (OTLP/HTTP error bodies)
  RpcStatus: { fields: { code: f("int32", 1), message: f("string", 2), details: rep("ProtoAny", 3) } },
  ProtoAny: { fields: { typeUrl: f("string", 1), value: f("bytes", 2) } },
};

const root = protobuf.Root.fromJSON({ nested: { otlp: { nested: types } } });
root.resolveAll();

function lookup(name: string): protobuf.Type {
  return root.lookupType(`otlp.${name}`);
}

/** protobufjs types of the OTLP messages, resolved once at module load (immutable after). */
export const pb = {
  AnyValue: lookup("AnyValue"),
  Span: lookup("Span"),
  LogRecord: lookup("LogRecord"),
  Resource: lookup("Resource"),
  InstrumentationScope: lookup("InstrumentationScope"),
  ExportTraceServiceRequest: lookup("ExportTraceServiceRequest"),
  ExportTraceServiceResponse: lookup("ExportTraceServiceResponse"),
  ExportLogsServiceRequest: lookup("ExportLogsServiceRequest"),
  ExportLogsServiceResponse: lookup("ExportLogsServiceResponse"),
  RpcStatus: lookup("RpcStatus"),
} as const;
