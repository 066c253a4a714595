export { goldenItemSchema, type GoldenItem, type GoldenItemInput, type GoldenSet, type GoldenFormat } from "./schema.js";
export { loadGoldenSet, parseGoldenSet, goldenSetHash, deriveGoldenId, detectGoldenFormat, type LoadGoldenOptions } from "./loader.js";
export { matchMode, isAnswerable, countMatchModes, MATCH_MODES, type MatchMode } from "./match.js";
export { CSV_COLUMNS } from "./csv.js";
export { GoldenSetError } from "./errors.js";
export { normalizeText, wordSegments, sentences, numbersIn, canonicalNumber, hasCjk, defaultWordSegmenter, wordLikeSegments, type WordSegment } from "./text.js";
export { STOP_WORDS } from "./stopwords.js";
