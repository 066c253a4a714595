import type { StoredSpan } from "../../core/src/domain/spans.js";

/** A stored span of `trace` as the OpenInference instrumentation of `service` writes it: one µs long, status unset, no events. */
export function storedSpan(trace: string, service: string, id: string, parent: string, start: string, attributes: StoredSpan["attributes"]): StoredSpan {
  return {
    trace_id: trace,
    span_id: id,
    parent_span_id: parent,
    name: `op ${id}`,
    kind: 1,
    start_time_unix_nano: start,
    end_time_unix_nano: String(BigInt(start) + 1000n),
    status_code: 0,
    attributes,
    resource_attributes: { "service.name": service },
    scope_name: "openinference",
    events: [],
    service_name: service,
  };
}
