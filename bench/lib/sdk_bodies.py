"""OTLP protobuf request bodies written by the OpenTelemetry Python SDK's exporter (bench:peer, issue 38).

Reads the requests' content from stdin (JSON, as bench/lib/sdk-bodies.mjs writes it), records each
request's spans with the SDK (TracerProvider with the given resource, ids and times, SimpleSpanProcessor
into an InMemorySpanExporter) and writes each body as opentelemetry-exporter-otlp-proto-http's
OTLPSpanExporter serializes it (`encode_spans(spans).SerializePartialToString()`), each preceded by
its length as 4 bytes big-endian, to stdout.

Run with the interpreter of scripts/python-env.mjs (tests/python/requirements.txt pins the SDK).
"""

import json
import struct
import sys

from opentelemetry import trace
from opentelemetry.exporter.otlp.proto.common.trace_encoder import encode_spans
from opentelemetry.sdk.resources import Resource
from opentelemetry.sdk.trace import TracerProvider
from opentelemetry.sdk.trace.export import SimpleSpanProcessor
from opentelemetry.sdk.trace.export.in_memory_span_exporter import InMemorySpanExporter
from opentelemetry.sdk.trace.id_generator import IdGenerator

KINDS = {1: trace.SpanKind.INTERNAL, 2: trace.SpanKind.SERVER, 3: trace.SpanKind.CLIENT}


class GivenIds(IdGenerator):
    """Hands out the ids the content names, in the order the spans are started."""

    def __init__(self):
        self.trace_ids = []
        self.span_ids = []

    def generate_trace_id(self):
        return self.trace_ids.pop(0)

    def generate_span_id(self):
        return self.span_ids.pop(0)


def value(v):
    if isinstance(v, dict) and "int" in v:
        return int(v["int"])
    return v


def body(request, scope_name, scope_version):
    ids = GivenIds()
    exporter = InMemorySpanExporter()
    provider = TracerProvider(resource=Resource.create(request["resource"]), id_generator=ids)
    provider.add_span_processor(SimpleSpanProcessor(exporter))
    tracer = provider.get_tracer(scope_name, scope_version)
    for t in request["traces"]:
        started = {}
        for s in sorted(t["spans"], key=lambda s: s["parentSpanId"] != ""):  # the root first
            ids.span_ids.append(int(s["spanId"], 16))
            if s["parentSpanId"] == "":
                ids.trace_ids.append(int(t["traceId"], 16))
                ctx = None
            else:
                ctx = trace.set_span_in_context(started[s["parentSpanId"]])
            attrs = {k: value(v) for k, v in s["attributes"]}
            started[s["spanId"]] = tracer.start_span(s["name"], context=ctx, kind=KINDS[s["kind"]], attributes=attrs, start_time=int(s["start"]))
        for s in t["spans"]:  # in the content's order (the order the spans end)
            started[s["spanId"]].end(end_time=int(s["end"]))
    spans = exporter.get_finished_spans()
    provider.shutdown()
    return encode_spans(spans).SerializePartialToString()


def main():
    content = json.load(sys.stdin)
    out = sys.stdout.buffer
    for request in content["requests"]:
        b = body(request, content["scope"]["name"], content["scope"]["version"])
        out.write(struct.pack(">I", len(b)))
        out.write(b)
    out.flush()


if __name__ == "__main__":
    main()
