"""Ragas faithfulness + answer_relevancy on JSON cases (bench/judges/ragas.mjs).

stdin: [{"id", "question", "answer", "contexts": [str]}]; stdout: {"ragas_version", "api", "results":
[{"id", "faithfulness", "answer_relevancy", "error"}]}. The judge is the OpenAI-compatible endpoint in
OPENAI_BASE_URL (OPENAI_API_KEY), through Ragas 0.4's own factories (llm_factory, embedding_factory)
and its metric collections (ragas.metrics.collections), one `ascore` per sample and metric.
"""

import asyncio
import json
import os
import sys

import ragas
from openai import AsyncOpenAI
from ragas.embeddings import embedding_factory
from ragas.llms import llm_factory
from ragas.metrics.collections import AnswerRelevancy, Faithfulness

CONCURRENCY = 8
TIMEOUT_S = 120


async def main() -> None:
    cases = json.load(sys.stdin)
    client = AsyncOpenAI(base_url=os.environ["OPENAI_BASE_URL"], api_key=os.environ.get("OPENAI_API_KEY", "x"), timeout=60, max_retries=1)
    llm = llm_factory("gpt-4o-mini", client=client)
    embeddings = embedding_factory("openai", model="text-embedding-3-small", client=client)
    faithfulness = Faithfulness(llm=llm)
    relevancy = AnswerRelevancy(llm=llm, embeddings=embeddings)
    gate = asyncio.Semaphore(CONCURRENCY)

    async def one(case: dict) -> dict:
        out = {"id": case["id"], "faithfulness": None, "answer_relevancy": None, "error": None}
        async with gate:
            try:
                f = await asyncio.wait_for(
                    faithfulness.ascore(user_input=case["question"], response=case["answer"], retrieved_contexts=case["contexts"]), TIMEOUT_S
                )
                out["faithfulness"] = float(f.value)
                r = await asyncio.wait_for(relevancy.ascore(user_input=case["question"], response=case["answer"]), TIMEOUT_S)
                out["answer_relevancy"] = float(r.value)
            except Exception as err:  # noqa: BLE001 — reported per case
                out["error"] = f"{type(err).__name__}: {err}"[:500]
        return out

    results = await asyncio.gather(*(one(c) for c in cases))
    json.dump({"ragas_version": ragas.__version__, "api": "ragas.metrics.collections + llm_factory/embedding_factory, ascore", "results": results}, sys.stdout)


if __name__ == "__main__":
    asyncio.run(main())
