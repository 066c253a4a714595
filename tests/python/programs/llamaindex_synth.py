"""LlamaIndex's response synthesizer over chunks the program fetched itself (no retriever of
LlamaIndex's: a keyword search of its own, as a team with its own search service writes it),
instrumented by OpenLLMetry (opentelemetry-instrumentation-llamaindex with -openai). argv[1]:
`nodes`: the chunks given as nodes with their ids and scores (`synthesize(query, nodes)`);
`text_chunks`: given as plain texts (`get_response(query, text_chunks)`), so the trace holds no
document list, only the text the synthesizer joined and split."""

import os
import sys

import rag_common as rc

mode = sys.argv[1]
provider = rc.setup_tracing(f"py-llamaindex-synth-{mode}")
from opentelemetry.instrumentation.llamaindex import LlamaIndexInstrumentor  # noqa: E402
from opentelemetry.instrumentation.openai import OpenAIInstrumentor  # noqa: E402

LlamaIndexInstrumentor().instrument(tracer_provider=provider)
OpenAIInstrumentor().instrument(tracer_provider=provider)

from llama_index.core import get_response_synthesizer  # noqa: E402
from llama_index.core.schema import NodeWithScore, TextNode  # noqa: E402
from llama_index.llms.openai import OpenAI  # noqa: E402

found = rc.keyword_search(rc.QUESTION)
llm = OpenAI(model=rc.MODEL, temperature=0, api_base=rc.env("OPENAI_BASE_URL"), api_key=os.environ.get("OPENAI_API_KEY", "test-key"))
synthesizer = get_response_synthesizer(llm=llm)
if mode == "nodes":
    nodes = [NodeWithScore(node=TextNode(id_=d["id"], text=d["text"], metadata=rc.metadata_of(d)), score=s) for d, s in found]
    answer = str(synthesizer.synthesize(rc.QUESTION, nodes=nodes))
elif mode == "text_chunks":
    answer = str(synthesizer.get_response(rc.QUESTION, text_chunks=[d["text"] for d, _ in found]))
else:
    raise SystemExit(f"unknown mode {mode}")
rc.report(provider, rc.QUESTION, found, answer)
