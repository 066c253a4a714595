"""Plain OpenAI RAG: a keyword search of its own over the fixed knowledge base, then a chat completion
with the real `openai` client against OPENAI_BASE_URL, instrumented by the official
opentelemetry-instrumentation-openai-v2. argv[1] says how the retrieval is recorded:
`handwritten`: a span of the program's own with the OTel GenAI retrieval attributes, the chat's
content sent only as OTLP log events (OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT=event_only);
`util-genai`: opentelemetry-util-genai's retrieval invocation, content on spans (span_only). Both
with the latest conventions (OTEL_SEMCONV_STABILITY_OPT_IN=gen_ai_latest_experimental): this release
captures content only in them."""

import json
import os
import sys

import rag_common as rc

mode = sys.argv[1]
if mode not in ("handwritten", "util-genai"):
    raise SystemExit(f"unknown mode {mode}")
os.environ["OTEL_SEMCONV_STABILITY_OPT_IN"] = "gen_ai_latest_experimental"
os.environ["OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT"] = "event_only" if mode == "handwritten" else "span_only"

from opentelemetry import trace  # noqa: E402
from opentelemetry._logs import set_logger_provider  # noqa: E402
from opentelemetry.exporter.otlp.proto.http._log_exporter import OTLPLogExporter  # noqa: E402
from opentelemetry.instrumentation.openai_v2 import OpenAIInstrumentor  # noqa: E402
from opentelemetry.sdk._logs import LoggerProvider  # noqa: E402
from opentelemetry.sdk._logs.export import BatchLogRecordProcessor  # noqa: E402

provider = rc.setup_tracing(f"py-openai-v2-{mode}")
logs = LoggerProvider(resource=provider.resource)
logs.add_log_record_processor(BatchLogRecordProcessor(OTLPLogExporter()))
set_logger_provider(logs)
OpenAIInstrumentor().instrument(tracer_provider=provider, logger_provider=logs)

from openai import OpenAI  # noqa: E402

client = OpenAI()
tracer = trace.get_tracer("rag-app")


def as_documents(found):
    return [{"id": d["id"], "score": s, "content": d["text"], "document_id": d["document_id"] or d["source"]} for d, s in found]


with tracer.start_as_current_span("rag"):
    if mode == "handwritten":
        with tracer.start_as_current_span("retrieval acme-kb") as span:
            found = rc.keyword_search(rc.QUESTION)
            span.set_attribute("gen_ai.operation.name", "retrieval")
            span.set_attribute("gen_ai.data_source.id", "acme-kb")
            span.set_attribute("gen_ai.retrieval.query.text", rc.QUESTION)
            span.set_attribute("gen_ai.retrieval.documents", json.dumps(as_documents(found)))
    else:
        from opentelemetry.util.genai.handler import TelemetryHandler

        handler = TelemetryHandler(tracer_provider=provider, logger_provider=logs)
        with handler.retrieval(data_source_id="acme-kb") as retrieval:
            found = rc.keyword_search(rc.QUESTION)
            retrieval.query_text = rc.QUESTION
            retrieval.top_k = rc.TOP_K
            # Mappings, not RetrievalDocument (which has only id and score): the content must be sent.
            retrieval.documents = as_documents(found)
    context = "\n\n".join(f"[{d['id']}] {d['text']}" for d, _ in found)
    completion = client.chat.completions.create(
        model=rc.MODEL,
        messages=[{"role": "system", "content": f"Answer from the context only.\n\nContext:\n{context}"}, {"role": "user", "content": rc.QUESTION}],
    )
logs.force_flush()
logs.shutdown()
rc.report(provider, rc.QUESTION, found, completion.choices[0].message.content, completion.usage.prompt_tokens, completion.usage.completion_tokens)
