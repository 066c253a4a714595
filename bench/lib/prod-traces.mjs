// Production-shaped RAG traces for the benchmarks (issue 31), deterministic from a seed (pure-rand's
// xoroshiro128+): a corpus of `chunks` chunks of 500–2,000 characters in `documents` documents (ten
// chunks each; a document is English, Russian or Chinese prose built from word lists), retrieval of
// 5–10 chunks per trace, the first by Zipf(`zipf`) popularity over all chunks, the others by the same
// popularity among the chunks of the first one's language; answers of 300–1,000 characters made of
// sentences of the retrieved chunks, each replaced with probability `inventedShare` by a sentence of
// words and numbers no chunk holds (counted per trace, so a benchmark can compare what the grounding
// judge flags); a share of traces without retrieval (`nonRagShare`: a chat only); every trace also
// carries non-RAG spans (an HTTP server or chain root, an embedding call). Half the traces (by
// `openInferenceShare`) follow the OpenInference conventions (CHAIN, EMBEDDING, RETRIEVER with
// `retrieval.documents.<i>.document.*`, LLM with `llm.*`), the rest OpenTelemetry GenAI (`gen_ai.*`,
// documents as `gen_ai.retrieval.documents` JSON, messages as `gen_ai.input/output.messages`), as
// core/src/extract/ reads them. Encoded as the collector writes a trace to Kafka: one OTLP protobuf
// ExportTraceServiceRequest keyed by its trace id (bench/lib/scorer-traces.mjs does the same for the
// tiny traces).
import { uniformFloat64 } from "pure-rand/distribution/uniformFloat64";
import { uniformInt } from "pure-rand/distribution/uniformInt";
import { xoroshiro128plus } from "pure-rand/generator/xoroshiro128plus";
import { encodeTraceRequest } from "../../otlp/dist/index.js";

/** The generator's defaults (issue 31's production shape). */
export const PROD_DEFAULTS = Object.freeze({
  seed: 31,
  chunks: 20_000,
  documents: 2_000,
  zipf: 1.1,
  chunkChars: [500, 2000],
  retrieved: [5, 10],
  answerChars: [300, 1000],
  inventedShare: 0.15,
  nonRagShare: 0.1,
  openInferenceShare: 0.5,
  /** Share of documents per language. */
  languages: Object.freeze({ en: 0.6, ru: 0.25, zh: 0.15 }),
});

const w = (s) => s.split(" ");
/** Per language: the corpus's words and sentence templates, and the invented sentences' (words no chunk uses). */
const LANG = {
  en: {
    noun: w(
      "account backup cluster database region invoice replica snapshot network token schedule storage policy request limit quota team project service endpoint certificate volume instance bucket pipeline report dashboard alert metric query index shard role permission key plan subscription customer order payment refund warehouse shipment contract ticket release feature build document page section version migration connection session cache queue message worker job",
    ),
    verb: w(
      "stores copies rotates checks limits creates deletes updates sends receives protects restores encrypts schedules retries measures reports exports imports validates blocks allows requires supports includes replaces moves scales monitors tracks",
    ),
    intr: w("starts ends fails expires resumes returns stops waits"),
    adj: w(
      "daily encrypted primary secondary regional private public default custom monthly automatic manual internal external shared dedicated temporary permanent older newer active idle failed pending critical optional hourly weekly standard premium",
    ),
    unit: w("hours days minutes weeks requests gigabytes"),
    templates: [
      "The {adj} {noun} {verb} the {noun} every {num} {unit}.",
      "Each {noun} {verb} a {adj} {noun} before the {noun} {intr}.",
      "If the {noun} is {adj}, the {noun} {verb} every {adj} {noun}.",
      "{Adj} {noun}s are kept for {num} {unit} in the {adj} {noun}.",
      "A {adj} {noun} {verb} up to {num} {noun}s per {noun}.",
      "When a {noun} {intr}, the {noun} {verb} the {adj} {noun} and the {noun}.",
    ],
    inoun: w("glacier violin orchard lantern harbor meadow falcon marble canyon velvet compass tundra saffron bamboo walrus quartz pebble thimble juniper"),
    iverb: w("paints sings polishes carves plants knits weaves brews bakes whistles"),
    iadj: w("golden silent ancient purple wooden frozen tropical hollow gentle"),
    invented: ["The {iadj} {inoun} {iverb} {num} {inoun}s near the {inoun}.", "Every {inoun} {iverb} a {iadj} {inoun} within {num} moons."],
    question: (s) => `How does the ${s[0]} ${s[1]} relate to the ${s[2]}?`,
    sep: " ",
  },
  ru: {
    noun: w(
      "сервер кластер проект отчёт счёт ключ запрос лимит тариф регион диск снимок журнал токен сертификат доступ платёж заказ договор склад релиз модуль индекс сеанс кэш канал узел процесс график бюджет",
    ),
    verb: w(
      "хранит копирует проверяет ограничивает создаёт удаляет обновляет отправляет получает защищает восстанавливает шифрует планирует повторяет измеряет экспортирует импортирует блокирует разрешает поддерживает включает заменяет переносит отслеживает",
    ),
    intr: w("запускается завершается падает истекает возобновляется останавливается"),
    adj: w(
      "основной резервный ежедневный зашифрованный региональный закрытый открытый внутренний внешний общий выделенный временный постоянный активный стандартный платный ручной автоматический новый старый",
    ),
    unit: w("часов дней минут недель запросов гигабайт"),
    templates: [
      "{Adj} {noun} {verb} {adj} {noun} каждые {num} {unit}.",
      "Каждый {noun} {verb} {noun} до {num} раз в сутки.",
      "{Noun} {verb} {adj} {noun} в течение {num} {unit}.",
      "Когда {noun} {intr}, {adj} {noun} {verb} {noun}.",
      "{Adj} {noun} {verb} не более {num} {unit} на один {noun}.",
    ],
    inoun: w("ледник фонарь сокол мрамор каньон бархат компас шафран бамбук морж кварц камыш можжевельник"),
    iverb: w("рисует полирует вырезает сажает вяжет варит печёт насвистывает"),
    iadj: w("золотой тихий древний фиолетовый деревянный ледяной тропический полый лесной"),
    invented: ["{Iadj} {inoun} {iverb} {inoun} ровно {num} раз.", "Каждый {inoun} {iverb} {iadj} {inoun} за {num} лун."],
    question: (s) => `Как ${s[0]} связан с ${s[1]} и ${s[2]}?`,
    sep: " ",
  },
  zh: {
    noun: w("服务器 集群 用户 项目 报告 账单 密钥 请求 配额 套餐 区域 磁盘 快照 日志 令牌 证书 权限 付款 订单 合同 仓库 版本 模块 索引 会话 缓存 队列 节点 进程 计划"),
    verb: w("存储 复制 检查 限制 创建 删除 更新 发送 接收 保护 恢复 加密 安排 重试 测量 导出 导入 验证 阻止 支持"),
    intr: w("启动 结束 失败 过期 恢复 停止"),
    adj: w("主要的 备用的 每日的 加密的 区域的 私有的 公共的 默认的 自定义的 自动的 内部的 外部的 共享的 专用的 临时的"),
    unit: w("小时 天 分钟 周"),
    templates: [
      "{adj}{noun}每{num}{unit}{verb}一次{noun}。",
      "每个{noun}最多可以{verb}{num}个{noun}。",
      "如果{noun}是{adj}，系统会{verb}{adj}{noun}。",
      "当{noun}{intr}时，{noun}会{verb}{noun}和{noun}。",
      "{adj}{noun}在{num}{unit}内{verb}{noun}。",
    ],
    inoun: w("冰川 灯笼 港湾 草甸 猎鹰 大理石 峡谷 天鹅绒 罗盘 苔原 藏红花 竹林 海象 石英"),
    iverb: w("绘画 歌唱 雕刻 种植 编织 酿造 烘焙 吹奏"),
    iadj: w("金色 寂静 古老 紫色 木制 冰冻 热带 温柔"),
    invented: ["{iadj}{inoun}{iverb}了{num}只{inoun}。", "那片{iadj}{inoun}里有{num}座{inoun}。"],
    question: (s) => `${s[0]}和${s[1]}是什么关系？`,
    sep: "",
  },
};

const cap = (s) => s.charAt(0).toUpperCase() + s.slice(1);

/** A sentence of `template` with words of `vocab` drawn by `int`; `{num}` from `nums` [lo, hi]. */
function fill(template, vocab, int, nums) {
  const s = template.replace(/\{(\w+)\}/gu, (_, slot) => {
    if (slot === "num") return String(int(nums[0], nums[1]));
    const list = vocab[slot.toLowerCase()];
    const word = list[int(0, list.length - 1)];
    return slot[0] === slot[0].toUpperCase() ? cap(word) : word;
  });
  return vocab === LANG.en ? s.replace(/\b([Aa]) (?=[aeiou])/gu, "$1n ") : s;
}

/** A 32-bit seed of trace `i` under `seed` (murmur3's finaliser over both). */
function mix(seed, i) {
  let h = (seed ^ Math.imul(i + 1, 0x9e3779b1)) >>> 0;
  h = Math.imul(h ^ (h >>> 16), 0x85ebca6b);
  h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35);
  return (h ^ (h >>> 16)) | 0;
}

/**
 * The corpus: `chunks` chunks (sentences, language, document id), the Zipf popularity of each (by a
 * seeded permutation of ranks) and its cumulative distribution for sampling.
 */
export function createProdCorpus(options = {}) {
  const o = { ...PROD_DEFAULTS, ...options };
  const rng = xoroshiro128plus(o.seed);
  const int = (lo, hi) => uniformInt(rng, lo, hi);
  const langs = Object.keys(o.languages);
  const docLang = Array.from({ length: o.documents }, () => {
    let u = uniformFloat64(rng);
    for (const l of langs) {
      u -= o.languages[l];
      if (u < 0) return l;
    }
    return langs[langs.length - 1];
  });
  const chunks = [];
  for (let c = 0; c < o.chunks; c++) {
    const doc = Math.floor((c * o.documents) / o.chunks);
    const lang = docLang[doc];
    const L = LANG[lang];
    const target = int(o.chunkChars[0], o.chunkChars[1]);
    const sentences = [];
    let length = 0;
    for (let tries = 0; length < target && tries < 1000; tries++) {
      const s = fill(L.templates[int(0, L.templates.length - 1)], L, int, [2, 999]);
      const added = length + (sentences.length > 0 ? L.sep.length : 0) + s.length;
      if (added > o.chunkChars[1]) {
        if (length >= o.chunkChars[0]) break;
        continue;
      }
      sentences.push(s);
      length = added;
    }
    chunks.push({ index: c, id: `doc-${doc}#${c % Math.ceil(o.chunks / o.documents)}`, document_id: `doc-${doc}`, lang, sentences, length });
  }
  // Popularity: rank r (1-based) has weight r^-zipf; the chunk of rank r is a seeded permutation's r-th.
  const byRank = Int32Array.from({ length: o.chunks }, (_, k) => k);
  for (let k = o.chunks - 1; k > 0; k--) {
    const j = int(0, k);
    [byRank[k], byRank[j]] = [byRank[j], byRank[k]];
  }
  const cdf = new Float64Array(o.chunks);
  let total = 0;
  for (let r = 0; r < o.chunks; r++) {
    total += (r + 1) ** -o.zipf;
    cdf[r] = total;
  }
  const rankOf = new Int32Array(o.chunks);
  for (let r = 0; r < o.chunks; r++) rankOf[byRank[r]] = r;
  return { options: o, chunks, byRank, rankOf, cdf, total };
}

/** The text of a chunk (its sentences joined as its language writes them). */
export const chunkText = (chunk) => chunk.sentences.join(LANG[chunk.lang].sep);

/** A Zipf draw: the index of a chunk. */
function zipfChunk(corpus, rng) {
  const u = uniformFloat64(rng) * corpus.total;
  let lo = 0;
  let hi = corpus.cdf.length - 1;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (corpus.cdf[mid] <= u) lo = mid + 1;
    else hi = mid;
  }
  return corpus.byRank[lo];
}

const hexOf = (int, digits) => {
  let s = "";
  while (s.length < digits) s += int(0, 0xffff).toString(16).padStart(4, "0");
  return /^0+$/u.test(s) ? `${s.slice(0, -1)}1` : s.slice(0, digits);
};

/**
 * Trace `i` of the corpus: what it is made of (convention, language, question, retrieved chunk
 * indexes in rank order, answer and its sentences with how many were invented) and its spans as
 * OTLP objects (`request`: an ExportTraceServiceRequest).
 */
export function prodTrace(corpus, i) {
  const o = corpus.options;
  const rng = xoroshiro128plus(mix(o.seed, i));
  const int = (lo, hi) => uniformInt(rng, lo, hi);
  const chance = (p) => uniformFloat64(rng) < p;
  const convention = chance(o.openInferenceShare) ? "openinference" : "genai";
  const rag = !chance(o.nonRagShare);
  const first = corpus.chunks[zipfChunk(corpus, rng)];
  const lang = first.lang;
  const L = LANG[lang];
  const retrieved = [first.index];
  if (rag) {
    const k = int(o.retrieved[0], o.retrieved[1]);
    for (let tries = 0; retrieved.length < k && tries < 10_000; tries++) {
      const c = zipfChunk(corpus, rng);
      if (corpus.chunks[c].lang === lang && !retrieved.includes(c)) retrieved.push(c);
    }
  }
  // The question: words of one sentence of the first chunk.
  const known = (x) => L.noun.includes(x) || L.adj.includes(x) || L.noun.includes(x.replace(/s$/u, ""));
  const words = (s) =>
    lang === "zh"
      ? L.noun.filter((n) => s.includes(n))
      : s
          .replace(/[.,]/gu, "")
          .split(" ")
          .map((x) => x.toLowerCase())
          .filter(known);
  const asked = words(first.sentences[int(0, first.sentences.length - 1)]);
  while (asked.length < 3) asked.push(L.noun[int(0, L.noun.length - 1)]);
  const question = L.question(asked);
  // The answer: sentences of the retrieved chunks, some replaced by invented ones.
  const target = int(o.answerChars[0], o.answerChars[1]);
  const sentences = [];
  const invented = [];
  let length = 0;
  for (let tries = 0; length < target && tries < 1000; tries++) {
    // Without retrieval the model answers in the corpus's words (nothing to be grounded in).
    const made = rag && chance(o.inventedShare);
    const from = corpus.chunks[retrieved[int(0, retrieved.length - 1)]];
    const s = !rag
      ? fill(L.templates[int(0, L.templates.length - 1)], L, int, [2, 999])
      : made
        ? fill(L.invented[int(0, L.invented.length - 1)], L, int, [7000, 9999])
        : from.sentences[int(0, from.sentences.length - 1)];
    const added = length + (sentences.length > 0 ? L.sep.length : 0) + s.length;
    if (added > o.answerChars[1]) {
      if (length >= o.answerChars[0]) break;
      continue;
    }
    sentences.push(s);
    invented.push(made);
    length = added;
  }
  const answer = sentences.join(L.sep);
  const traceId = hexOf(int, 32);
  const docs = rag
    ? retrieved.map((c, r) => {
        const ch = corpus.chunks[c];
        return { id: ch.id, document_id: ch.document_id, content: chunkText(ch), score: Math.round((0.92 - r * 0.04) * 1e4) / 1e4 };
      })
    : [];
  const promptTokens = Math.ceil((question.length + docs.reduce((a, d) => a + d.content.length, 0)) / 4) + 40;
  const completionTokens = Math.ceil(answer.length / 4);
  const t0 = 1_764_460_800_000_000_000n + BigInt(i) * 1_000_000n;
  const spans = [];
  const rootId = hexOf(int, 16);
  const span = (name, kind, parent, startMs, endMs, attributes, spanId = hexOf(int, 16)) => {
    spans.push({
      traceId,
      spanId,
      traceState: "",
      parentSpanId: parent,
      flags: 1,
      name,
      kind,
      startTimeUnixNano: t0 + BigInt(startMs) * 1_000_000n,
      endTimeUnixNano: t0 + BigInt(endMs) * 1_000_000n,
      attributes,
      droppedAttributesCount: 0,
      events: [],
      droppedEventsCount: 0,
      links: [],
      droppedLinksCount: 0,
      status: { code: 0, message: "" },
    });
  };
  const kv = (key, v) => ({
    key,
    value: typeof v === "bigint" ? { intValue: v } : typeof v === "number" ? (Number.isInteger(v) ? { intValue: BigInt(v) } : { doubleValue: v }) : { stringValue: v },
  });
  const model = "gpt-4o-mini";
  if (convention === "genai") {
    span("POST /ask", 2, "", 0, 900, [kv("http.request.method", "POST"), kv("url.path", "/ask"), kv("http.response.status_code", 200)], rootId);
    if (rag) {
      span("embeddings text-embedding-3-small", 3, rootId, 2, 40, [
        kv("gen_ai.operation.name", "embeddings"),
        kv("gen_ai.request.model", "text-embedding-3-small"),
        kv("gen_ai.usage.input_tokens", Math.ceil(question.length / 4)),
      ]);
      span("retrieval kb", 1, rootId, 41, 90, [
        kv("gen_ai.operation.name", "retrieval"),
        kv("gen_ai.retrieval.query.text", question),
        kv("gen_ai.request.top_k", docs.length),
        kv("gen_ai.retrieval.documents", JSON.stringify(docs)),
      ]);
    }
    span(`chat ${model}`, 3, rootId, 91, 890, [
      kv("gen_ai.operation.name", "chat"),
      kv("gen_ai.request.model", model),
      kv("gen_ai.response.model", model),
      kv("gen_ai.usage.input_tokens", promptTokens),
      kv("gen_ai.usage.output_tokens", completionTokens),
      kv(
        "gen_ai.input.messages",
        JSON.stringify([
          { role: "system", parts: [{ type: "text", content: "Answer from the retrieved context only." }] },
          { role: "user", parts: [{ type: "text", content: question }] },
        ]),
      ),
      kv("gen_ai.output.messages", JSON.stringify([{ role: "assistant", parts: [{ type: "text", content: answer }], finish_reason: "stop" }])),
    ]);
  } else {
    span("query", 1, "", 0, 900, [kv("openinference.span.kind", "CHAIN"), kv("input.value", question), kv("output.value", answer)], rootId);
    if (rag) {
      span("embedding", 1, rootId, 2, 40, [kv("openinference.span.kind", "EMBEDDING"), kv("embedding.model_name", "text-embedding-3-small")]);
      span("retrieve", 1, rootId, 41, 90, [
        kv("openinference.span.kind", "RETRIEVER"),
        kv("input.value", question),
        ...docs.flatMap((d, r) => [
          kv(`retrieval.documents.${r}.document.id`, d.id),
          kv(`retrieval.documents.${r}.document.content`, d.content),
          kv(`retrieval.documents.${r}.document.score`, d.score),
          kv(`retrieval.documents.${r}.document.metadata`, JSON.stringify({ document_id: d.document_id })),
        ]),
      ]);
    }
    span("llm", 1, rootId, 91, 890, [
      kv("openinference.span.kind", "LLM"),
      kv("llm.model_name", model),
      kv("llm.token_count.prompt", promptTokens),
      kv("llm.token_count.completion", completionTokens),
      kv("llm.token_count.total", promptTokens + completionTokens),
      kv("llm.input_messages.0.message.role", "system"),
      kv("llm.input_messages.0.message.content", "Answer from the retrieved context only."),
      kv("llm.input_messages.1.message.role", "user"),
      kv("llm.input_messages.1.message.content", question),
      kv("llm.output_messages.0.message.role", "assistant"),
      kv("llm.output_messages.0.message.content", answer),
    ]);
  }
  const request = {
    resourceSpans: [
      {
        resource: {
          attributes: [kv("service.name", "prod-rag"), kv("deployment.environment.name", "bench"), kv("ragmeter.pipeline.version", "prod-v1")],
          droppedAttributesCount: 0,
          entityRefs: [],
        },
        scopeSpans: [{ scope: { name: convention === "genai" ? "prod-rag" : "openinference", version: "1", attributes: [], droppedAttributesCount: 0 }, spans, schemaUrl: "" }],
        schemaUrl: "",
      },
    ],
  };
  return {
    traceId,
    convention,
    rag,
    lang,
    question,
    retrieved: rag ? retrieved : [],
    /** The chunk drawn first by Zipf popularity (the retrieval's first, or the language of a trace without one). */
    firstChunk: first.index,
    answer,
    sentences,
    invented: invented.filter(Boolean).length,
    spans,
    request,
  };
}

/** Trace `i` as the collector writes it to Kafka: its trace id and one OTLP protobuf request (and what it is made of, `trace`). */
export function prodTraceBytes(corpus, i) {
  const trace = prodTrace(corpus, i);
  return { key: trace.traceId, value: Buffer.from(encodeTraceRequest(trace.request, "protobuf")), trace };
}
