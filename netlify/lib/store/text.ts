/**
 * Search tokens. The index stores each word and each of its prefixes (from MIN_PREFIX to
 * MAX_PREFIX letters) as a term, so a typed prefix is one sorted-set lookup at query time
 * instead of a union over every word that starts with it.
 */

/** Shorter query words only match whole words; "oa" would match half the directory. */
export const MIN_PREFIX = 3;
/** Longer words are indexed and queried by their first MAX_PREFIX letters. */
export const MAX_PREFIX = 15;
/** More words than this in one query are ignored (bounds the intersection). */
export const MAX_QUERY_TERMS = 5;

const STOPWORDS = new Set(
  (
    "a an and are as at be but by for from has have in into is it its of on or our so that the their " +
    "them they this to up us was we were what when where which who will with you your"
  ).split(" "),
);

/** Lower-cased, accent-free words; apostrophes are dropped so "oak's" -> "oaks". */
export function words(text: string): string[] {
  return text
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/['\u2019]/g, "")
    .split(/[^a-z0-9]+/)
    .filter((w) => w.length > 0 && !STOPWORDS.has(w));
}

/** Every term a document with this text is findable by. */
export function indexTerms(texts: readonly string[]): string[] {
  const terms = new Set<string>();
  for (const text of texts) {
    for (const word of words(text)) {
      if (word.length < MIN_PREFIX) {
        terms.add(word);
        continue;
      }
      const max = Math.min(word.length, MAX_PREFIX);
      for (let n = MIN_PREFIX; n <= max; n++) terms.add(word.slice(0, n));
    }
  }
  return [...terms].sort();
}

/** The terms a search box text asks for (AND), normalized like the index, sorted, unique. */
export function queryTerms(search: string | null | undefined): string[] {
  const terms = new Set<string>();
  for (const word of words(search ?? "")) {
    terms.add(word.slice(0, MAX_PREFIX));
    if (terms.size >= MAX_QUERY_TERMS) break;
  }
  return [...terms].sort();
}
