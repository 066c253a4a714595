import type { WordSegment } from "@ragmeter/golden";

// Numbers written as words, read as numbers (issue 13): English and Russian number words are merged
// into one number segment after word segmentation; Chinese numerals are rewritten as digits before
// it. Cardinals up to the millions; ordinals are left as words.

const EN_UNITS: Record<string, number> = {
  zero: 0,
  one: 1,
  two: 2,
  three: 3,
  four: 4,
  five: 5,
  six: 6,
  seven: 7,
  eight: 8,
  nine: 9,
  ten: 10,
  eleven: 11,
  twelve: 12,
  thirteen: 13,
  fourteen: 14,
  fifteen: 15,
  sixteen: 16,
  seventeen: 17,
  eighteen: 18,
  nineteen: 19,
  twenty: 20,
  thirty: 30,
  forty: 40,
  fifty: 50,
  sixty: 60,
  seventy: 70,
  eighty: 80,
  ninety: 90,
};
const EN_SCALES: Record<string, number> = { hundred: 100, thousand: 1000, million: 1_000_000 };

/** Russian number words in their common case forms (nominative, genitive/prepositional, instrumental). */
const RU_UNITS: Record<string, number> = {};
const ruForms = (value: number, ...forms: string[]): void => {
  for (const f of forms) RU_UNITS[f] = value;
};
ruForms(0, "ноль", "нуля", "нулю", "нулем");
ruForms(1, "один", "одна", "одно", "одного", "одной", "одному", "одним", "одну");
ruForms(2, "два", "две", "двух", "двум", "двумя");
ruForms(3, "три", "трех", "трем", "тремя");
ruForms(4, "четыре", "четырех", "четырем", "четырьмя");
// 5–20 and 30 end in -ь: -ь, -и, -ью.
const SOFT: [number, string][] = [
  [5, "пять"],
  [6, "шесть"],
  [7, "семь"],
  [8, "восемь"],
  [9, "девять"],
  [10, "десять"],
  [11, "одиннадцать"],
  [12, "двенадцать"],
  [13, "тринадцать"],
  [14, "четырнадцать"],
  [15, "пятнадцать"],
  [16, "шестнадцать"],
  [17, "семнадцать"],
  [18, "восемнадцать"],
  [19, "девятнадцать"],
  [20, "двадцать"],
  [30, "тридцать"],
];
for (const [v, w] of SOFT) ruForms(v, w, `${w.slice(0, -1)}и`, `${w}ю`);
ruForms(8, "восьми", "восьмью");
ruForms(40, "сорок", "сорока");
ruForms(50, "пятьдесят", "пятидесяти");
ruForms(60, "шестьдесят", "шестидесяти");
ruForms(70, "семьдесят", "семидесяти");
ruForms(80, "восемьдесят", "восьмидесяти");
ruForms(90, "девяносто", "девяноста");
ruForms(100, "сто", "ста");
ruForms(200, "двести", "двухсот");
ruForms(300, "триста", "трехсот");
ruForms(400, "четыреста", "четырехсот");
ruForms(500, "пятьсот", "пятисот");
ruForms(600, "шестьсот", "шестисот");
ruForms(700, "семьсот", "семисот");
ruForms(800, "восемьсот", "восьмисот");
ruForms(900, "девятьсот", "девятисот");
const RU_SCALES: Record<string, number> = {};
for (const f of ["тысяча", "тысячи", "тысяч", "тысячу", "тысячей"]) RU_SCALES[f] = 1000;
for (const f of ["миллион", "миллиона", "миллионов"]) RU_SCALES[f] = 1_000_000;

/** A Russian word with ё read as е (only when it has one: this runs on every word). */
const yo = (w: string): string => (w.includes("ё") ? w.replace(/ё/gu, "е") : w);
// Maps, not the objects: a plain object answers "constructor" or "toString" from its prototype.
const UNITS = new Map<string, number>([...Object.entries(EN_UNITS), ...Object.entries(RU_UNITS)]);
const SCALES = new Map<string, number>([...Object.entries(EN_SCALES), ...Object.entries(RU_SCALES)]);
const unitOf = (w: string): number | undefined => UNITS.get(w) ?? UNITS.get(yo(w));
const scaleOf = (w: string): number | undefined => SCALES.get(w) ?? SCALES.get(yo(w));

/** Words before a scale word that make it no number ("a few thousand dollars", "несколько тысяч"). */
const VAGUE = new Set(["few", "several", "many", "some", "couple", "multiple", "tens", "hundreds", "thousands", "несколько", "много", "пару", "нескольких", "десятки", "сотни"]);
export const NUMBER_WORD_RULES = [...VAGUE].join(",");

/**
 * Merges each run of English or Russian number words ("two hundred and fifty", "двести пятьдесят")
 * into one number segment ("250"); "and" inside a run is part of it. Other segments are kept.
 */
export function mergeNumberWords(segments: readonly WordSegment[]): WordSegment[] {
  const out: WordSegment[] = [];
  let i = 0;
  while (i < segments.length) {
    const s = segments[i] as WordSegment;
    if (!startsNumberRun(segments, i)) {
      out.push(s);
      i++;
      continue;
    }
    const run = numberRun(segments, i);
    out.push({ text: String(run.value), isNumber: true });
    i = run.end;
  }
  return out;
}

/** Whether a run of number words starts at `i`: a number word, not a scale word after a vague one ("a few thousand"). */
function startsNumberRun(segments: readonly WordSegment[], i: number): boolean {
  const s = segments[i] as WordSegment;
  if (s.isNumber || (unitOf(s.text) === undefined && scaleOf(s.text) === undefined)) return false;
  return !(i > 0 && VAGUE.has((segments[i - 1] as WordSegment).text) && scaleOf(s.text) !== undefined);
}

/** The value of the run of number words starting at `i`, and where it ends (exclusive); "and" between number words is part of it. */
function numberRun(segments: readonly WordSegment[], i: number): { value: number; end: number } {
  let total = 0;
  let current = 0;
  let j = i;
  for (; j < segments.length; j++) {
    const w = (segments[j] as WordSegment).text;
    const u = unitOf(w);
    const k = scaleOf(w);
    if (u !== undefined) current += u;
    else if (k === 100) current = (current || 1) * 100;
    else if (k !== undefined) {
      total += (current || 1) * k;
      current = 0;
    } else if (!(w === "and" && j > i && j + 1 < segments.length && unitOf((segments[j + 1] as WordSegment).text) !== undefined)) break;
  }
  return { value: total + current, end: j };
}

const ZH_DIGITS: Record<string, number> = { 零: 0, 〇: 0, 一: 1, 二: 2, 两: 2, 三: 3, 四: 4, 五: 5, 六: 6, 七: 7, 八: 8, 九: 9 };
const ZH_UNITS: Record<string, number> = { 十: 10, 百: 100, 千: 1000 };
const ZH_RUN = /[零〇一二两三四五六七八九十百千万亿]+/gu;
/** Measure words and units after which a lone Chinese digit is a number ("六个月", "三天"). */
const ZH_MEASURE = /^[个天日月年周次小分秒元岁名件张份位人台倍层页条]/u;

/** Value of a Chinese numeral ("二百五十" → 250, "十五" → 15, "一万二千" → 12000). */
export function chineseNumeralValue(run: string): number {
  let total = 0;
  let section = 0;
  let digit = 0;
  for (const ch of run) {
    if (ch in ZH_DIGITS) digit = ZH_DIGITS[ch] as number;
    else if (ch in ZH_UNITS) {
      section += (digit || 1) * (ZH_UNITS[ch] as number);
      digit = 0;
    } else if (ch === "万" || ch === "亿") {
      total += (section + digit) * (ch === "万" ? 10_000 : 100_000_000);
      section = 0;
      digit = 0;
    }
  }
  return total + section + digit;
}

/**
 * Chinese numerals in `text` rewritten as digits: runs with a unit character (十百千万), runs of two
 * or more characters, and a lone digit before a measure word; other lone characters (一 in 一律,
 * 统一) stay words.
 */
export function chineseNumeralsToDigits(text: string): string {
  return text.replace(ZH_RUN, (run, offset: number) => {
    const after = text.slice(offset + run.length);
    const numeric = /[十百千万亿]/u.test(run) || Array.from(run).length >= 2 || ZH_MEASURE.test(after);
    if (!numeric || /^[万亿]/u.test(run)) return run;
    return String(chineseNumeralValue(run));
  });
}
