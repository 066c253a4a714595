"""A LlamaIndex query engine: a keyword retriever (a BaseRetriever of its own) over the fixed
knowledge base, the default response synthesizer, llama-index-llms-openai against OPENAI_BASE_URL.
Instrumented by the library named in argv[1]: `openinference`
(openinference-instrumentation-llama-index) or `openllmetry` (opentelemetry-instrumentation-llamaindex
with opentelemetry-instrumentation-openai)."""

import os
import sys

import rag_common as rc

instrumentation = sys.argv[1]
provider = rc.setup_tracing(f"py-llamaindex-{instrumentation}")
if instrumentation == "openinference":
    from openinference.instrumentation.llama_index import LlamaIndexInstrumentor

    LlamaIndexInstrumentor().instrument(tracer_provider=provider)
elif instrumentation == "openllmetry":
    from opentelemetry.instrumentation.llamaindex import LlamaIndexInstrumentor
    from opentelemetry.instrumentation.openai import OpenAIInstrumentor

    LlamaIndexInstrumentor().instrument(tracer_provider=provider)
    OpenAIInstrumentor().instrument(tracer_provider=provider)
else:
    raise SystemExit(f"unknown instrumentation {instrumentation}")

from llama_index.core import QueryBundle  # noqa: E402
from llama_index.core.query_engine import RetrieverQueryEngine  # noqa: E402
from llama_index.core.retrievers import BaseRetriever  # noqa: E402
from llama_index.core.schema import NodeRelationship, NodeWithScore, RelatedNodeInfo, TextNode  # noqa: E402
from llama_index.llms.openai import OpenAI  # noqa: E402


class KeywordRetriever(BaseRetriever):
    def _retrieve(self, query_bundle: QueryBundle) -> list[NodeWithScore]:
        return [
            NodeWithScore(
                node=TextNode(
                    id_=d["id"],
                    text=d["text"],
                    metadata=rc.metadata_of(d),
                    relationships={NodeRelationship.SOURCE: RelatedNodeInfo(node_id=d["document_id"] or d["source"])},
                ),
                score=s,
            )
            for d, s in rc.keyword_search(query_bundle.query_str)
        ]


llm = OpenAI(model=rc.MODEL, temperature=0, api_base=rc.env("OPENAI_BASE_URL"), api_key=os.environ.get("OPENAI_API_KEY", "test-key"))
engine = RetrieverQueryEngine.from_args(KeywordRetriever(), llm=llm)
response = engine.query(rc.QUESTION)
rc.report(provider, rc.QUESTION, rc.keyword_search(rc.QUESTION), str(response))
