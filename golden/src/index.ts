export {
  checkGoldenSet,
  type GoldenCheck,
  NEAR_DUPLICATE_JACCARD,
  occurrences,
  type QuestionPair,
  questionWords,
  type SubstringFinding,
  similarQuestions,
  wordJaccard,
} from "./check.js";
export { CSV_COLUMNS } from "./csv.js";
export { GoldenSetError } from "./errors.js";
export { deriveGoldenId, detectGoldenFormat, goldenSetHash, type LoadGoldenOptions, loadGoldenSet, parseGoldenSet } from "./loader.js";
export { countMatchModes, isAnswerable, MATCH_MODES, type MatchFields, type MatchMode, matchMode } from "./match.js";
export { type GoldenFormat, type GoldenItem, type GoldenItemInput, type GoldenSet, goldenItemSchema } from "./schema.js";
export { STOP_WORDS } from "./stopwords.js";
export { canonicalNumber, defaultWordSegmenter, hasCjk, normalizeText, numbersIn, sentences, type WordSegment, wordLikeSegments, wordSegments } from "./text.js";
