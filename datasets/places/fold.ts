/**
 * Name folding: the one normalisation applied to every name the pipeline indexes and to every
 * query the server receives, so that both sides meet on the same keys.
 *
 * - Compatibility decomposition (NFKD): full-width letters and ligatures become plain letters.
 * - Lower case (locale-independent), then combining diacritical marks removed:
 *   Zürich = zurich = ZURICH, Kraków = Krakow, São Paulo = sao paulo, İstanbul = istanbul.
 *   Only Latin/Greek/Cyrillic-style combining marks (and Arabic harakat, Hebrew points) are
 *   removed: vowel signs of Indic scripts and kana voicing marks are letters, not accents.
 * - Letters that do not decompose are spelled out: ß→ss, ø→o, æ→ae, œ→oe, ł→l, đ/ð→d, þ→th, ı→i.
 * - Apostrophes and full stops vanish (N'Djamena = Ndjamena, St. = St, D.C. = DC); every other
 *   run of punctuation, symbols and spaces becomes one space (Saint-Denis = saint denis).
 * - NFC at the end recomposes Hangul syllables and kana.
 */

const COMBINING = /[\u0300-\u036f\u1ab0-\u1aff\u1dc0-\u1dff\u20d0-\u20ff\ufe20-\ufe2f\u064b-\u065f\u0670\u0591-\u05c7]/g;

const SPELLED: Readonly<Record<string, string>> = {
  "ß": "ss", "ø": "o", "æ": "ae", "œ": "oe", "ł": "l", "đ": "d", "ð": "d", "þ": "th", "ı": "i",
  "ħ": "h", "ŧ": "t", "ŀ": "l", "ĸ": "k", "ŋ": "n", "ς": "σ",
};
const SPELLED_RE = /[ßøæœłđðþıħŧŀĸŋς]/g;
const VANISHING = /['’‘ʼʻ`´.]/g;
const SEPARATORS = /[\p{P}\p{S}\p{Z}\s]+/gu;

/** Printable ASCII only: no decomposition, no combining marks, no spelled-out letters apply. */
const PRINTABLE_ASCII = /^[\x20-\x7e]*$/;
const ASCII_VANISHING = /['`.]/g;
/** After lower-casing, every printable ASCII character but a-z and 0-9 is punctuation, a symbol or a space. */
const ASCII_SEPARATORS = /[^a-z0-9]+/g;

/** Folds a name or query to its search key ("" when nothing searchable is left). */
export function foldName(text: string): string {
  // Two thirds of GeoNames' names are printable ASCII: the same result without the Unicode passes.
  if (PRINTABLE_ASCII.test(text)) return text.toLowerCase().replace(ASCII_VANISHING, "").replace(ASCII_SEPARATORS, " ").trim();
  return foldUnicode(text);
}

/** The general fold, for any text (foldName's definition; exported for the test of the ASCII path). */
export function foldUnicode(text: string): string {
  return text
    .normalize("NFKD")
    .toLowerCase()
    .replace(COMBINING, "")
    .replace(SPELLED_RE, (c) => SPELLED[c]!)
    .replace(VANISHING, "")
    .replace(SEPARATORS, " ")
    .trim()
    .normalize("NFC");
}

/** Length in Unicode code points (what the typo rules count: 4-7 → 1 edit, 8+ → 2 edits). */
export function codePointLength(text: string): number {
  let n = 0;
  for (const _ of text) n++;
  return n;
}

/** Edits allowed for a folded query of this many code points (the rule). */
export function allowedEdits(length: number): number {
  if (length >= 8) return 2;
  if (length >= 4) return 1;
  return 0;
}

/** The apostrophes folding drops (VANISHING without the full stop), as one class. */
const APOSTROPHES = /['’‘ʼʻ`´]/g;
/** Stands for an apostrophe through folding: a private-use character, neither a letter to fold nor a separator. */
export const APOSTROPHE_MARK = "\ue000";

/** Folds a name keeping its apostrophes (all variants as one mark: server/places/literal.ts). */
export function foldKeepingApostrophes(text: string): string {
  return foldName(text.replace(APOSTROPHES, APOSTROPHE_MARK));
}
