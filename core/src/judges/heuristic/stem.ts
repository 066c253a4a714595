import { stemmer as englishStemmer } from "@orama/stemmers/english";
import { stemmer as russianStemmer } from "@orama/stemmers/russian";

const CYRILLIC = /\p{Script=Cyrillic}/u;
const LATIN = /^[a-z]+$/u;

/**
 * Snowball stem of one lower-cased word (`@orama/stemmers`): Russian for Cyrillic words (ё read as
 * е), English for Latin ones; any other token (numbers, CJK bigrams) is returned unchanged.
 */
export function stem(word: string): string {
  if (CYRILLIC.test(word)) return russianStemmer(word.replace(/ё/gu, "е"));
  if (LATIN.test(word)) return englishStemmer(word);
  return word;
}
