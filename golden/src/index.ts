export { goldenItemSchema, type GoldenItem, type GoldenItemInput, type GoldenSet } from "./schema.js";
export { loadGoldenSet, parseGoldenSet, goldenSetHash, type LoadGoldenOptions } from "./loader.js";
export { GoldenSetError } from "./errors.js";
export { normalizeText, wordSegments, sentences, numbersIn, canonicalNumber, hasCjk, defaultWordSegmenter, wordLikeSegments, type WordSegment } from "./text.js";
export { STOP_WORDS } from "./stopwords.js";
