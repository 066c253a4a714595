"""A Haystack pipeline: a keyword retriever (a component of its own) over the fixed knowledge base, a
ChatPromptBuilder, OpenAIChatGenerator against OPENAI_BASE_URL; instrumented by OpenInference
(openinference-instrumentation-haystack)."""

import rag_common as rc

provider = rc.setup_tracing("py-haystack-openinference")
from openinference.instrumentation.haystack import HaystackInstrumentor  # noqa: E402

HaystackInstrumentor().instrument(tracer_provider=provider)

from haystack import Document, Pipeline, component  # noqa: E402
from haystack.components.builders import ChatPromptBuilder  # noqa: E402
from haystack.components.generators.chat import OpenAIChatGenerator  # noqa: E402
from haystack.dataclasses import ChatMessage  # noqa: E402
from haystack.utils import Secret  # noqa: E402


@component
class KeywordRetriever:
    @component.output_types(documents=list[Document])
    def run(self, query: str):
        return {"documents": [Document(id=d["id"], content=d["text"], meta=rc.metadata_of(d), score=s) for d, s in rc.keyword_search(query)]}


template = [
    ChatMessage.from_system("Answer from the context only.\n\nContext:\n{% for d in documents %}[{{ d.id }}] {{ d.content }}\n{% endfor %}"),
    ChatMessage.from_user("{{ question }}"),
]
pipe = Pipeline()
pipe.add_component("retriever", KeywordRetriever())
pipe.add_component("prompt", ChatPromptBuilder(template=template, required_variables=["documents", "question"]))
pipe.add_component("llm", OpenAIChatGenerator(model=rc.MODEL, api_key=Secret.from_token("test-key"), api_base_url=rc.env("OPENAI_BASE_URL")))
pipe.connect("retriever.documents", "prompt.documents")
pipe.connect("prompt.prompt", "llm.messages")
result = pipe.run({"retriever": {"query": rc.QUESTION}, "prompt": {"question": rc.QUESTION}})
reply = result["llm"]["replies"][0]
usage = reply.meta.get("usage", {})
rc.report(provider, rc.QUESTION, rc.keyword_search(rc.QUESTION), reply.text, usage.get("prompt_tokens"), usage.get("completion_tokens"))
