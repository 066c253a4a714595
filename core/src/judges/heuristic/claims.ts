import { STOP_WORDS } from "@ragmeter/golden";
import { isAbstention } from "../../domain/metrics/abstention.js";

// Claim segmentation of the no-LLM grounding judge (design §5): an answer's sentences, list items
// and lines, minus what states nothing about the world — list markers, headers ("Summary:"),
// framing preambles ("Based on the provided passages, …" is cut off, the rest judged), greetings
// and pleasantries, questions back to the user, and "I don't know" forms — in English, Russian and
// Chinese. Inline source markers ("[doc-7]", "(Passage 2)", "【1】") are kept in the claim's text
// and left out of what is compared with the chunks.

/** One claim: its text as the answer writes it, what is compared, and where it stands in the answer. */
export interface ClaimSpan {
  /** The sentence as written (whitespace folded), preamble included. */
  readonly text: string;
  /** What the judge compares with the chunks: preamble and source markers removed. */
  readonly core: string;
  /** Offsets of `text` in the NFC-normalised answer. */
  readonly start: number;
  readonly end: number;
}

const SENTENCE_SEGMENTER = new Intl.Segmenter(undefined, { granularity: "sentence" });

/** A list marker, a heading mark or a bullet at the start of a piece. */
const LIST_MARKER = /^(?:[-*•·‣▪◦–—>]+|#{1,6}|\d{1,3}[.)、．]|[a-zA-Z][.)](?=\s)|\(\d{1,3}\)|[①-⑳]|[一二三四五六七八九十]+、)\s*/u;

/** Inline source markers: [1], [doc-7], [source: a.md], (Passage 2), (passages 1 and 3), 【1】, [^1]. */
const SOURCE_MARKER =
  /\s*(?:\[\^?\d+(?:\s*[,–-]\s*\d+)*\]|\[(?:doc|document|source|src|passage|chunk|ref|reference|context|документ|источник|фрагмент|文档|来源|段落)[^\]\n]{0,40}\]|\((?:see |cf\. )?(?:passage|passages|doc|document|source|chunk|context|документ|фрагмент|источник)s?[\s\d,&and–-]{1,20}\)|【[^】\n]{1,20}】|（(?:段落|文档|来源)[^）\n]{0,20}）)/giu;

/** A reference by number inside a claim to the context or to the answer's own steps ("Passage 2 suggests …", "passages 1 and 3", "Repeat step 4", "Option 1:"): its numbers are no claim about the world. */
const NUMBERED_REFERENCE =
  /(?<![\p{L}\p{N}])(passages?|documents?|sources?|excerpts?|chunks?|steps?|options?|methods?|tips?|ways?|stages?|phases?|шаг\p{L}*|вариант\p{L}*|способ\p{L}*|фрагмент\p{L}*|документ\p{L}*|источник\p{L}*)\s*(?:#|no\.|№)?\s*\d{1,2}(?:\s*(?:,|and|&|и|or|или|-|–)\s*\d{1,2})*(?![\p{N}.,]\d)/giu;

/** Framing openers that attribute what follows to the context; the rest of the sentence is judged. */
const PREAMBLE = [
  /^(?:based (?:solely |only )?(?:up)?on|according to|as (?:stated|mentioned|described|shown|explained) in|from|per|in) (?:the |these |this )?(?:provided |given |above |available |retrieved |supplied |following |supporting |relevant )*(?:passages?|documents?|documentation|context|information|sources?|texts?|excerpts?|snippets?|search results?|articles?|data|docs)(?: (?:provided|given|above|you (?:provided|shared|gave)))?(?: \d+(?:\s*(?:,|and|&)\s*\d+)*)?\s*[,:]\s*/iu,
  /^(?:согласно|по данным|на основе|на основании|исходя из|судя по|как (?:указано|сказано|следует) (?:в|из)|по информации(?: из)?)\s+(?:(?:предоставленн|приведенн|приведённ|имеющ|найденн|данн)\S*\s+)?(?:документ|документаци|фрагмент|контекст|источник|текст|информаци|материал|данн)\S*\s*[,:]\s*/iu,
  /^(?:根据|依据|基于|按照|据)(?:所?提供的|上述|以上|给定的|相关)?(?:文档|文件|资料|段落|上下文|信息|内容|材料|来源|文章)(?:中的信息|中的内容|中|所述|内容|信息)?\s*[，,：:]\s*/u,
];

/** Whole sentences that are pleasantries, not claims. */
const PLEASANTRY =
  /^(?:(?:hi|hello|hey)(?: there)?|greetings|good (?:morning|afternoon|evening)|thanks?(?: you)?(?: for (?:your|the) question| for reaching out)?|you(?:'|’)re welcome|sure|certainly|of course|absolutely|great question|good question|glad (?:I could|to) help|that(?:'|’)s (?:it|all)|that is (?:it|all)|voil[aà]|happy to help|I(?:'|’)m happy to help|I hope (?:this|that) helps|hope (?:this|that) helps|(?:please )?let me know .*|(?:please )?(?:do not|don[’']t) hesitate to .*|good luck(?: with .*)?|best(?: (?:of luck|wishes|regards))?|(?:kind |warm )?regards|sincerely|\[your name\]|take care|stay safe|cheers|here(?:[’']s| is| are) (?:what|some (?:information|details)|the (?:information|details|answer|summary)) ?(?:I (?:found|could find|have)|for you|you (?:asked|requested))?|(?:sure|certainly|of course|absolutely|okay|ok)?,? ?I(?:'d| would|'ll| will|'m| am| can)? (?:be )?(?:happy|glad|more than happy|do my best)? ?(?:to )?(?:help|assist)(?: you)?(?: (?:with|resolve|solve|fix|understand|answer|figure out|sort out) (?:that|this|it|your question))?|feel free to .*|if you have (?:any )?(?:other|more|further) questions.*|have a (?:nice|great|good|wonderful|lovely|fantastic|pleasant) (?:day|week|weekend|evening|time)|здравствуйте|привет|добрый (?:день|вечер)|доброе утро|спасибо(?: за (?:ваш )?вопрос)?|пожалуйста|конечно|рад(?:а)? помочь|с удовольствием помогу|надеюсь, это (?:поможет|помогло)|обращайтесь|хорошего дня|если (?:у вас )?(?:остались|будут|возникнут) (?:ещё |еще )?вопросы.*|你好|您好|谢谢|不客气|当然(?:可以)?|很高兴(?:为您|能)?(?:帮助|帮忙|解答)?|希望(?:这|以上)(?:对您)?有(?:所)?帮助|如(?:果)?(?:您)?有(?:其他|任何)问题.*|祝您.*)[\s!.。！,，~]*$/iu;

/**
 * Words of sentences that speak of the answer or the context rather than of the world ("This is
 * mentioned in passage 3.", "Therefore, I can confidently answer the question."): a piece made only
 * of these and stop words, once references such as "passage 3" are removed, is no claim.
 */
const META_WORDS =
  /^(?:passages?|documents?|documentation|context|contexts|sources?|texts?|excerpts?|information|info|provided|given|above|mentioned|stated|states|say|says|said|mention|mentions|answer|answers|answered|question|questions|confidently|sufficient|enough|based|according|following|therefore|thus|hence|so|note|however|also|additionally|repeat|repeats|same|first|second|third|fourth|fifth|both|all|none|each|specific|specifically|detail|details|clearly|directly|explicitly|further|relevant|help|helpful|hope|able|unable|there|here|this|that|these|those|это|в|об|этом|фрагмент\S*|документ\S*|контекст\S*|источник\S*|информаци\S*|вопрос\S*|ответ\S*|указан\S*|сказан\S*|упомина\S*|приведен\S*|предоставлен\S*|\d+)$/iu;

/** Sentences about what the context does not say, or that the question cannot be answered from it. */
const LIMITATION = [
  /\b(?:passages?|documents?|documentation|context|sources?|texts?|excerpts?|information provided|search results?)\s+(?:(?:above|provided|given)\s+)?(?:do|does|did)\s*(?:not|n[’']t)\s+(?:\w+\s+)?(?:provide|mention|specify|say|state|include|contain|give|cover|address|discuss|offer|explain|describe|list|indicate|clarify|detail)/iu,
  /\b(?:is|was)\s+(?:not|never)\s+(?:explicitly\s+|specifically\s+|directly\s+|clearly\s+)?(?:mentioned|stated|specified|provided|given|addressed|discussed|described|covered)\s+(?:in|by)\s+(?:the\s+)?(?:given\s+|provided\s+)?(?:passages?|documents?|context|sources?|texts?)/iu,
  /\b(?:it\s+is|it[’']s)\s+(?:not\s+possible|impossible|difficult|unclear)\s+to\s+(?:provide|determine|answer|say|tell|know|give)/iu,
  /\bwithout\s+(?:additional|more|further|specific)\s+(?:information|context|details)\b/iu,
  /\bthere\s+(?:is|are|was|were)\s+no\s+(?:specific\s+|direct\s+|explicit\s+|clear\s+|further\s+)?(?:mention|information|instructions?|details?|data|references?|indication)s?\s+(?:of|about|on|regarding|as to|in|to)\b/iu,
  /\bno\s+(?:passages?|documents?|sources?|context)\s+(?:mentions?|says?|states?|provides?|gives?|specif(?:y|ies)|discuss(?:es)?)\b/iu,
  /\bI\s+(?:do\s*not|don[’']t)\s+have\s+(?:that|this|the|enough|any|sufficient|such)\s+(?:information|details|data)\b/iu,
  /(?:фрагмент|документ|контекст|источник|текст)\S*\s+(?:(?:ничего\s+)?не\s+(?:указ|сказ|упомина|говор|привод|содерж|описыв|уточня)|нет\s+(?:информации|сведений|данных))/iu,
  /(?:невозможно|нельзя)\s+(?:однозначно\s+)?(?:ответить|сказать|определить)/iu,
  /(?:文档|段落|资料|上下文|材料)(?:中|里)?(?:并)?(?:没有|未|没)(?:有)?(?:提到|提及|提供|说明|指出|给出|涉及)/u,
  /无法(?:确定|回答|得知|判断)/u,
];

/** A header: a short line or sentence ending in a colon ("Summary:", "Here's what the docs say:"). */
const HEADER_END = /[:：]\s*$/u;

/** The pieces of an answer (sentences split at line breaks and CJK terminators), with offsets. */
function pieces(answer: string): { text: string; start: number }[] {
  const out: { text: string; start: number }[] = [];
  for (const s of SENTENCE_SEGMENTER.segment(answer)) {
    let offset = s.index;
    for (const line of s.segment.split(/(?<=[。！？\n])/u)) {
      if (line.trim().length > 0) out.push({ text: line, start: offset });
      offset += line.length;
    }
  }
  return out;
}

/** The part of a piece that is compared: list marker, preamble and source markers removed. */
function claimCore(piece: string): string {
  let t = piece.replace(/\s+/gu, " ").trim();
  for (let i = 0; i < 3; i++) {
    const next = t.replace(LIST_MARKER, "");
    if (next === t) break;
    t = next;
  }
  t = t.replace(/^\*\*([^*]+)\*\*\s*/u, "$1 ").replace(/\*\*/gu, "");
  for (const p of PREAMBLE) t = t.replace(p, "");
  return t.replace(SOURCE_MARKER, "").replace(NUMBERED_REFERENCE, "$1").trim();
}

/** Why a piece is not a claim, or null when it is one. */
function notAClaim(core: string): "empty" | "header" | "pleasantry" | "question" | "abstention" | "meta" | null {
  const letters = core.replace(/[^\p{L}\p{N}]/gu, "");
  if (letters.length === 0) return "empty";
  if (HEADER_END.test(core)) return "header";
  if (PLEASANTRY.test(core) || core.split(/[,，、]\s*/u).every((part) => PLEASANTRY.test(part))) return "pleasantry";
  if (/[?？]\s*["'»”)]*$/u.test(core)) return "question";
  if (isAbstention(core) || LIMITATION.some((r) => r.test(core))) return "abstention";
  if (isMeta(core)) return "meta";
  return null;
}

/** A numbered reference to the context ("passage 3", "document 2", "фрагмент 1"). */
const CONTEXT_REFERENCE = /(?:passages?|documents?|sources?|chunks?|фрагмент\S*|документ\S*|источник\S*)\s*(?:#|no\.|№)?\s*\d+/giu;

/** True when the piece speaks only of the context or the answer (see {@link META_WORDS}). */
function isMeta(core: string): boolean {
  if (/\p{Script=Han}/u.test(core)) return /^(?:这|以上|上述)?(?:在|是)?(?:文档|段落|资料|上下文)\S{0,12}(?:提到|所述|中)[的了]?[。.]?$/u.test(core);
  const words =
    core
      .toLowerCase()
      .replace(CONTEXT_REFERENCE, " ")
      .match(/[\p{L}\p{N}'’]+/gu) ?? [];
  return words.every((w) => META_WORDS.test(w) || STOP_WORDS.has(w)) && words.some((w) => META_WORDS.test(w) && !STOP_WORDS.has(w));
}

/** A markdown heading line ("## Costs"), or a line that is only bold or italic text without a sentence end ("* **Overview**"). */
const MARKDOWN_HEADING = /^\s*(?:#{1,6}\s|(?:[-*+•]\s+)?(?:\*\*|__)[^*_\n]{1,80}(?:\*\*|__)[:：]?\s*$)/u;
/** A markdown table row ("| Pro | $10 |") and the separator under a table's header row ("|---|:--:|"). */
const TABLE_ROW = /^\s*\|.*\|\s*$/u;
const TABLE_SEPARATOR = /^\s*\|?(?:\s*:?-{3,}:?\s*\|)+\s*:?-*:?\s*$/u;

/** A table row's cells as one clause ("Pro, $10, 5 users"); other pieces unchanged. */
function tableCells(piece: string): string {
  if (!TABLE_ROW.test(piece)) return piece;
  return piece
    .trim()
    .replace(/^\||\|$/gu, "")
    .split("|")
    .map((c) => c.trim())
    .filter((c) => c.length > 0)
    .join(", ");
}

/** The claims of an answer, in order. */
export function claimSpans(answer: string): ClaimSpan[] {
  const normalized = answer.normalize("NFC");
  const out: ClaimSpan[] = [];
  const all = pieces(normalized);
  all.forEach((p, i) => {
    if (MARKDOWN_HEADING.test(p.text) || TABLE_SEPARATOR.test(p.text)) return;
    // a table's header row: the row above the separator names columns, it states nothing
    if (TABLE_ROW.test(p.text) && TABLE_SEPARATOR.test(all[i + 1]?.text ?? "")) return;
    const core = claimCore(tableCells(p.text));
    if (notAClaim(core) !== null) return;
    const lead = p.text.length - p.text.trimStart().length;
    out.push({ text: p.text.replace(/\s+/gu, " ").trim(), core, start: p.start + lead, end: p.start + p.text.trimEnd().length });
  });
  return out;
}

/** Every pattern and word list of the claim rules, as text: part of the judge's prompt version. */
export const CLAIM_RULES = [
  LIST_MARKER,
  SOURCE_MARKER,
  ...PREAMBLE,
  PLEASANTRY,
  META_WORDS,
  ...LIMITATION,
  HEADER_END,
  CONTEXT_REFERENCE,
  MARKDOWN_HEADING,
  TABLE_ROW,
  TABLE_SEPARATOR,
  NUMBERED_REFERENCE,
]
  .map((r) => r.source)
  .join("\n");
