"""A DSPy program: dspy.Retrieve over a retrieval model of its own (the keyword search over the fixed
knowledge base), dspy.Predict("context, question -> response") with dspy.LM against OPENAI_BASE_URL;
instrumented by OpenInference (openinference-instrumentation-dspy)."""

import os

os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")  # litellm would fetch its price list at import
os.environ.setdefault("DSPY_CACHEDIR", os.path.join(os.environ.get("TMPDIR", "/tmp"), "ragmeter-dspy-cache"))

import rag_common as rc  # noqa: E402

provider = rc.setup_tracing("py-dspy-openinference")
from openinference.instrumentation.dspy import DSPyInstrumentor  # noqa: E402

DSPyInstrumentor().instrument(tracer_provider=provider)

import dspy  # noqa: E402


class Passage:
    def __init__(self, text):
        self.long_text = text


def keyword_rm(query, k=rc.TOP_K, **kwargs):
    return [Passage(d["text"]) for d, _ in rc.keyword_search(query, k)]


class RAG(dspy.Module):
    def __init__(self):
        super().__init__()
        self.retrieve = dspy.Retrieve(k=rc.TOP_K)
        self.respond = dspy.Predict("context, question -> response")

    def forward(self, question):
        context = self.retrieve(question).passages
        return self.respond(context=context, question=question)


lm = dspy.LM(f"openai/{rc.MODEL}", api_base=rc.env("OPENAI_BASE_URL"), api_key=os.environ.get("OPENAI_API_KEY", "test-key"), cache=False, temperature=0)
dspy.configure(lm=lm, rm=keyword_rm)
prediction = RAG()(question=rc.QUESTION)
usage = lm.history[-1].get("usage") or {}
rc.report(provider, rc.QUESTION, rc.keyword_search(rc.QUESTION), prediction.response, usage.get("prompt_tokens"), usage.get("completion_tokens"))
