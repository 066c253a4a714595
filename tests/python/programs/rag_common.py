"""What every test program shares: the fixed knowledge base, the keyword retrieval over it, the
question, OpenTelemetry set up as a user would (OTLP/HTTP protobuf exporter, endpoint from
OTEL_EXPORTER_OTLP_ENDPOINT), and the one JSON line a program prints: what it produced, which the
test compares with what ragmeter stored."""

import json
import os
import re
import sys

from opentelemetry import trace
from opentelemetry.exporter.otlp.proto.http.trace_exporter import OTLPSpanExporter
from opentelemetry.sdk.resources import Resource
from opentelemetry.sdk.trace import TracerProvider
from opentelemetry.sdk.trace.export import BatchSpanProcessor

QUESTION = "How many days do customers have to ask for a refund?"
MODEL = "gpt-4o-mini"
TOP_K = 3

# Five chunks. The first two carry an explicit document id beside a `source` naming the whole
# knowledge base (the explicit id must win); the others only a `source` naming their file.
DOCUMENTS = [
    {"id": "kb-refunds-1", "document_id": "refunds.md", "source": "acme-kb",
     "text": "Refunds: customers can ask for a refund within 30 days of purchase."},
    {"id": "kb-refunds-2", "document_id": "refunds.md", "source": "acme-kb",
     "text": "A refund is paid back to the original card within 5 business days."},
    {"id": "kb-shipping-1", "document_id": None, "source": "kb/shipping.md",
     "text": "Orders ship within two working days of payment."},
    {"id": "kb-account-1", "document_id": None, "source": "kb/account.md",
     "text": "You can close your account from the settings page."},
    {"id": "kb-support-1", "document_id": None, "source": "kb/support.md",
     "text": "Support answers questions by email within one business day."},
]

_STOP = {"how", "do", "have", "to", "for", "a", "the", "of", "is", "can", "you", "your", "by", "within", "from"}


def _terms(text):
    return [t for t in re.findall(r"[a-z0-9]+", text.lower()) if t not in _STOP]


def keyword_search(query, k=TOP_K):
    """The documents sharing terms with the query, best first: score = shared terms / query terms."""
    q = set(_terms(query))
    scored = []
    for i, d in enumerate(DOCUMENTS):
        shared = len(q & set(_terms(d["text"])))
        if shared > 0:
            scored.append((round(shared / len(q), 4), i, d))
    scored.sort(key=lambda x: (-x[0], x[1]))
    return [(d, s) for s, _, d in scored[:k]]


def metadata_of(d):
    m = {"source": d["source"]}
    if d["document_id"] is not None:
        m["document_id"] = d["document_id"]
    return m


def setup_tracing(service_name):
    """A tracer provider exporting OTLP/HTTP protobuf to OTEL_EXPORTER_OTLP_ENDPOINT."""
    provider = TracerProvider(resource=Resource.create({"service.name": service_name, "deployment.environment.name": "python-test"}))
    provider.add_span_processor(BatchSpanProcessor(OTLPSpanExporter()))
    trace.set_tracer_provider(provider)
    return provider


def report(provider, question, retrieved, answer, input_tokens=None, output_tokens=None, **extra):
    """Flushes the spans, then prints what the program produced as one JSON line."""
    provider.force_flush()
    provider.shutdown()
    line = {
        "question": question,
        "retrieved": [{"id": d["id"], "document_id": d["document_id"] or d["source"], "text": d["text"], "score": s} for d, s in retrieved],
        "answer": answer,
        "input_tokens": input_tokens,
        "output_tokens": output_tokens,
        **extra,
    }
    sys.stdout.write(json.dumps(line) + "\n")
    sys.stdout.flush()


def env(name):
    v = os.environ.get(name)
    if not v:
        raise SystemExit(f"{name} is not set")
    return v
