"""A LangChain retrieval chain served by LangServe, as a team deploys one (issue 37): ragmeter did not
design this HTTP shape. The chain is the `create_retrieval_chain` pattern in LangChain Core
expressions: it takes {"input": question} and returns {"input", "context": [Document], "answer"};
LangServe serves it at POST /rag/invoke, the body {"input": {"input": question}}, the reply
{"output": {...}, "metadata": {...}}. The keyword retriever over the fixed knowledge base of
rag_common, ChatOpenAI against OPENAI_BASE_URL. No tracing.

Listens on 127.0.0.1, on the port in argv[1] (0: any free one), and prints one line
`listening on http://127.0.0.1:PORT` once it accepts connections."""

import socket
import sys

import rag_common as rc
import uvicorn
from fastapi import FastAPI
from langchain_core.callbacks import CallbackManagerForRetrieverRun
from langchain_core.documents import Document
from langchain_core.output_parsers import StrOutputParser
from langchain_core.prompts import ChatPromptTemplate
from langchain_core.retrievers import BaseRetriever
from langchain_core.runnables import RunnablePassthrough
from langchain_openai import ChatOpenAI
from langserve import add_routes
from pydantic import BaseModel


class KeywordRetriever(BaseRetriever):
    def _get_relevant_documents(self, query: str, *, run_manager: CallbackManagerForRetrieverRun) -> list[Document]:
        return [Document(id=d["id"], page_content=d["text"], metadata={**rc.metadata_of(d), "score": s}) for d, s in rc.keyword_search(query)]


def format_docs(docs):
    return "\n\n".join(f"[{d.id}] {d.page_content}" for d in docs)


prompt = ChatPromptTemplate.from_messages([("system", "Answer from the context only.\n\nContext:\n{context}"), ("human", "{input}")])
llm = ChatOpenAI(model=rc.MODEL, temperature=0)
answer_chain = RunnablePassthrough.assign(context=lambda x: format_docs(x["context"])) | prompt | llm | StrOutputParser()
# what create_retrieval_chain(retriever, combine_docs_chain) builds: the input kept, the documents
# under "context", the generated text under "answer"
rag_chain = RunnablePassthrough.assign(context=(lambda x: x["input"]) | KeywordRetriever()).assign(answer=answer_chain)


class Question(BaseModel):
    input: str


class Answer(BaseModel):
    input: str
    context: list[Document]
    answer: str


app = FastAPI(title="acme-rag")
add_routes(app, rag_chain.with_types(input_type=Question, output_type=Answer), path="/rag")

sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
sock.bind(("127.0.0.1", int(sys.argv[1]) if len(sys.argv) > 1 else 0))
port = sock.getsockname()[1]


class Server(uvicorn.Server):
    async def startup(self, sockets=None):
        await super().startup(sockets=sockets)
        sys.stdout.write(f"listening on http://127.0.0.1:{port}\n")
        sys.stdout.flush()


Server(uvicorn.Config(app, log_level="warning")).run(sockets=[sock])
