"""A LangChain RAG chain: a keyword retriever (a BaseRetriever of its own) over the fixed knowledge
base, a prompt, ChatOpenAI against OPENAI_BASE_URL. Instrumented by the library named in argv[1]:
`openinference` (openinference-instrumentation-langchain) or `openllmetry`
(opentelemetry-instrumentation-langchain)."""

import sys

import rag_common as rc

instrumentation = sys.argv[1]
provider = rc.setup_tracing(f"py-langchain-{instrumentation}")
if instrumentation == "openinference":
    from openinference.instrumentation.langchain import LangChainInstrumentor

    LangChainInstrumentor().instrument(tracer_provider=provider)
elif instrumentation == "openllmetry":
    from opentelemetry.instrumentation.langchain import LangchainInstrumentor

    LangchainInstrumentor().instrument(tracer_provider=provider)
else:
    raise SystemExit(f"unknown instrumentation {instrumentation}")

from langchain_core.callbacks import CallbackManagerForRetrieverRun  # noqa: E402
from langchain_core.callbacks.usage import get_usage_metadata_callback  # noqa: E402
from langchain_core.documents import Document  # noqa: E402
from langchain_core.output_parsers import StrOutputParser  # noqa: E402
from langchain_core.prompts import ChatPromptTemplate  # noqa: E402
from langchain_core.retrievers import BaseRetriever  # noqa: E402
from langchain_core.runnables import RunnablePassthrough  # noqa: E402
from langchain_openai import ChatOpenAI  # noqa: E402


class KeywordRetriever(BaseRetriever):
    def _get_relevant_documents(self, query: str, *, run_manager: CallbackManagerForRetrieverRun) -> list[Document]:
        return [Document(id=d["id"], page_content=d["text"], metadata={**rc.metadata_of(d), "score": s}) for d, s in rc.keyword_search(query)]


def format_docs(docs):
    return "\n\n".join(f"[{d.id}] {d.page_content}" for d in docs)


prompt = ChatPromptTemplate.from_messages(
    [("system", "Answer from the context only.\n\nContext:\n{context}"), ("human", "{question}")]
)
llm = ChatOpenAI(model=rc.MODEL, temperature=0)
chain = {"context": KeywordRetriever() | format_docs, "question": RunnablePassthrough()} | prompt | llm | StrOutputParser()

with get_usage_metadata_callback() as usage:
    answer = chain.invoke(rc.QUESTION)
tokens = next(iter(usage.usage_metadata.values()))
rc.report(provider, rc.QUESTION, rc.keyword_search(rc.QUESTION), answer, tokens["input_tokens"], tokens["output_tokens"])
