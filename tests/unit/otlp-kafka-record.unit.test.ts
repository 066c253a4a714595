// The Kafka record contract of @ragmeter/otlp (design §6): names, key, headers and decoding of a
// record. Values are encoded here with the classes generated from the official .proto files, not
// with the codec under test.
import { describe, expect, it } from "vitest";
import { kafkaEnvSchema } from "../../kafka/src/settings.js";
import { opentelemetry } from "../../otlp/generated/otlp.js";
import { deadLetterHeaders, deadLetterTopic, decodeRecord, encodeRecordValue, RecordDecodeError, recordHeaders, recordKey, signalOf } from "../../otlp/src/index.js";

const traceId = "5b8efff798038103d269b633813fc60c";
const spanId = "eee19b7ec3c1b174";

function traceBody(): Uint8Array {
  return opentelemetry.proto.collector.trace.v1.ExportTraceServiceRequest.encode({
    resourceSpans: [
      {
        resource: { attributes: [{ key: "service.name", value: { stringValue: "rag" } }] },
        scopeSpans: [{ spans: [{ traceId: Buffer.from(traceId, "hex"), spanId: Buffer.from(spanId, "hex"), name: "retrieve", kind: 3 }] }],
      },
    ],
  }).finish();
}

describe("Kafka record contract", () => {
  it("names: headers, dead-letter topic, key", () => {
    expect(recordHeaders("logs", { traceparent: "00-x" })).toEqual({ traceparent: "00-x", "ragmeter-signal": "logs" });
    expect(deadLetterTopic("ragmeter.spans")).toBe("ragmeter.spans.dlq");
    expect(deadLetterHeaders("bad", { topic: "t", partition: 2, offset: "17" })).toEqual({ "ragmeter-error": "bad", "ragmeter-source": "t/2/17" });
    expect(recordKey(traceId)).toBe(traceId);
    expect(recordKey("")).toBeNull();
    expect([signalOf(undefined), signalOf("traces"), signalOf("logs"), signalOf("metrics")]).toEqual(["traces", "traces", "logs", null]);
  });

  it("decodes a traces record (header as the consumer hands it over: a Buffer)", () => {
    const r = decodeRecord({ "ragmeter-signal": Buffer.from("traces") }, traceBody());
    expect(r.signal).toBe("traces");
    if (r.signal !== "traces") return;
    const span = r.request.resourceSpans[0]!.scopeSpans[0]!.spans[0]!;
    expect([span.traceId, span.spanId, span.name, span.kind]).toEqual([traceId, spanId, "retrieve", 3]);
    expect(r.rejected).toBe(0);
  });

  it("round-trips a record value through encodeRecordValue", () => {
    const first = decodeRecord(undefined, traceBody());
    if (first.signal !== "traces") throw new Error("expected traces");
    const again = decodeRecord(recordHeaders("traces"), encodeRecordValue({ signal: "traces", request: first.request }));
    expect(again).toEqual(first);
  });

  it("refuses records outside the contract with RecordDecodeError", () => {
    expect(() => decodeRecord({ "ragmeter-signal": "metrics" }, traceBody())).toThrow(new RecordDecodeError('unknown ragmeter-signal header "metrics"'));
    expect(() => decodeRecord({}, null)).toThrow(new RecordDecodeError("empty message value"));
    expect(() => decodeRecord({ "ragmeter-signal": "logs" }, new Uint8Array([0x0a, 0xff, 0xff, 0x01]))).toThrow(RecordDecodeError);
  });

  it("validates KAFKA_BROKERS and RAGMETER_TOPIC once (the shared Kafka settings of @ragmeter/kafka)", () => {
    expect(kafkaEnvSchema.parse({ KAFKA_BROKERS: " a:9092, b:1 " })).toEqual({ brokers: ["a:9092", "b:1"], topic: "ragmeter.spans", security: { protocol: "PLAINTEXT" } });
    expect(kafkaEnvSchema.safeParse({ KAFKA_BROKERS: "nohost" }).success).toBe(false);
    expect(kafkaEnvSchema.safeParse({ RAGMETER_TOPIC: "" }).success).toBe(false);
  });
});
