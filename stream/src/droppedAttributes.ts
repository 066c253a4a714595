import type { TraceRequest } from "@ragmeter/otlp";

/**
 * Spans whose SDK dropped attributes (issue 38): OTLP `dropped_attributes_count` > 0 on the span,
 * one of its events or one of its links. The OpenTelemetry SDKs keep 128 attributes per span by
 * default, which cuts RAG spans recording many chunks (OpenInference's `retrieval.documents.N.*`
 * take four attributes per document); what was cut is lost before ragmeter sees it.
 */
export interface DroppedAttributes {
  /** Spans with dropped attributes, by `service.name` ("" for none). */
  readonly byService: Readonly<Record<string, number>>;
  /** Per service, the first such span: its name and where the attributes were dropped. */
  readonly first: Readonly<Record<string, { readonly span: string; readonly on: "span" | "event" | "link"; readonly dropped: number }>>;
}

/** The settings of the OpenTelemetry SDKs that raise each limit (the general one, `OTEL_ATTRIBUTE_COUNT_LIMIT`, covers all three). */
const LIMIT = { span: "OTEL_SPAN_ATTRIBUTE_COUNT_LIMIT", event: "OTEL_EVENT_ATTRIBUTE_COUNT_LIMIT", link: "OTEL_LINK_ATTRIBUTE_COUNT_LIMIT" } as const;

type Where = { on: "span" | "event" | "link"; dropped: number };
type ResourceSpans = TraceRequest["resourceSpans"][number];
type Span = ResourceSpans["scopeSpans"][number]["spans"][number];

/** Counts the spans of a trace request whose attributes were dropped by their SDK, by service. */
export function droppedAttributesOf(req: TraceRequest): DroppedAttributes | null {
  let byService: Record<string, number> | null = null;
  const first: Record<string, { span: string } & Where> = {};
  for (const rs of req.resourceSpans) {
    const service = serviceOf(rs);
    for (const ss of rs.scopeSpans) {
      for (const s of ss.spans) {
        const where = droppedWhere(s);
        if (where === null) continue;
        byService ??= {};
        byService[service] = (byService[service] ?? 0) + 1;
        first[service] ??= { span: s.name, ...where };
      }
    }
  }
  return byService === null ? null : { byService, first };
}

/** A resource's `service.name` ("" without one). */
function serviceOf(rs: ResourceSpans): string {
  const kv = rs.resource.attributes.find((a) => a.key === "service.name")?.value;
  return kv !== undefined && "stringValue" in kv ? kv.stringValue : "";
}

/** Where a span's SDK dropped attributes (the span itself, else its first such event, else link) and how many, or null. */
function droppedWhere(s: Span): Where | null {
  if (s.droppedAttributesCount > 0) return { on: "span", dropped: s.droppedAttributesCount };
  const event = s.events.find((e) => e.droppedAttributesCount > 0);
  if (event !== undefined) return { on: "event", dropped: event.droppedAttributesCount };
  const link = s.links.find((l) => l.droppedAttributesCount > 0);
  return link !== undefined ? { on: "link", dropped: link.droppedAttributesCount } : null;
}

/** Adds `b`'s counts to `a` (null: nothing). */
export function mergeDropped(a: DroppedAttributes | null, b: DroppedAttributes | null | undefined): DroppedAttributes | null {
  if (!b) return a;
  if (!a) return b;
  const byService: Record<string, number> = { ...a.byService };
  for (const [k, n] of Object.entries(b.byService)) byService[k] = (byService[k] ?? 0) + n;
  return { byService, first: { ...b.first, ...a.first } };
}

/** The one warning line for a service whose spans arrive with dropped attributes, naming the setting that fixes it. */
export function droppedAttributesWarning(service: string, first: DroppedAttributes["first"][string]): string {
  const who = service === "" ? "spans without a service.name" : `service "${service}"`;
  const what = first.on === "span" ? `span "${first.span}"` : `an ${first.on} of span "${first.span}"`;
  return (
    `${who} sends spans whose attributes its OpenTelemetry SDK dropped (${first.dropped} on ${what}): ` +
    `raise ${LIMIT[first.on]} (or OTEL_ATTRIBUTE_COUNT_LIMIT; the SDK default is 128) in that service, ` +
    "or retrieved documents and messages past the limit are lost before ragmeter sees them"
  );
}
