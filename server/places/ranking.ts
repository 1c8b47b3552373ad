/**
 * The ranking model of forward geocoding: every matching place gets one score, its best over the
 * ways it matched, and results are ordered by score (descending), ties by rank (the index order,
 * i.e. importance then GeoNames id): a total order, so offset paging never repeats or skips.
 *
 *   score = log10(population + 1) - feature malus + [seat bonus] - match penalty
 *
 * All terms are in orders of magnitude of population (datasets/places/importance.ts). Tuned on the
 * tuning part of the relevance bench's seeded split (bench/relevance/split.ts), never on its
 * held-out part; the exact-before-near numbers come from issue 39. The match penalty says how sure
 * we are that the text means this place:
 * - own name (GeoNames or ASCII name), exact: 0 for the first place so called (in rank order, among
 *   those the qualifiers let through), and only here does the capital/seat bonus count; 0.3 for its
 *   namesakes;
 * - alternate name, exact: 0.2, plus a shared penalty when the text is also another place's own
 *   name, scaled by that place's importance (the first one so called): 0 below 5.7 (about 500,000
 *   people), 1.5 from 6.2 (1.6 million), linear in between, and 1.5 whenever it is a national or
 *   first-level capital (seat bonus 0.2 or more). The name of a big city or a capital means it
 *   unless the other place is some 50 times as important (Victoria, Hong Kong Island, before Hong
 *   Kong; Dili before Delhi; Philadelphia before Amman); the name of a town means the bigger
 *   place that carries it as an alternate (Medina: Madinah, 50 times Medina, Ohio; Geneva: Genève).
 *   Measured from the outside (bench/relevance), a flat 2 lost a fifth of these names to towns;
 * - historic, colloquial or code name (alternateNamesV2 flags), exact: 2.5, plus the same shared
 *   penalty;
 * - prefix of an own name: 0.7, so an exact name comes first against a prefix match of less than
 *   10^0.7 = 5 times its importance (Porto before Porto Alegre, Auch before Auchi; Milan before Mila
 *   for "Mila", Lagos before Lago);
 * - prefix (4+ bytes) of an alternate name that takes part in typo matching (a Latin-script name
 *   of an important place, pipeline/places/database.ts): 2.5 ("Rang" reaches Yangon, "Vish"
 *   Visakhapatnam);
 * - typo: 2 for one edit, 1.2 when that edit swaps two neighbouring letters (the commonest
 *   slip of typing: "Xainyang" is Xianyang, a swap, before Xinyang, a deletion, although Xinyang
 *   is bigger), 3 for two, 0.5 more when the first character differs (people rarely
 *   mistype the first letter: Rangpur before Nagpur for "Ragpur"), 2 more for an alternate name
 *   ("Jaurez" is Ciudad Juárez, 200 times Juárez, Chiapas). A typo needs some 20 times the
 *   importance of a real prefix match to come before it (Likasi before Lima for "Lika", Kagoshima
 *   before Kano, but Kanpur, 28 times Kapurthala, for "Kapur");
 * - own prefix that does not keep what was typed literally (a final space, an apostrophe:
 *   server/places/literal.ts): 2.3;
 * - prefix of other alternate names: 5 (names in other languages rarely mean a place typed by its
 *   first letters: "São P" is São Paulo, not Luanda's old Portuguese name).
 * Typos, prefixes of other alternate names and non-literal prefixes are weak matches (search.ts
 * demoteWeak): when the text is a name of some place (exact before near), no typo is looked for
 * ("Pudong" is Pudong, not Yudong) and every other weak match follows every strong one ("Kunsan" is
 * Gunsan before Kunshan, whose alternate name Kunsanas it begins); otherwise only the best weak
 * match keeps its place, so typos never crowd the places whose names were being typed out of the
 * first page.
 * Known qualifiers filter; soft ones (soft-qualifier.ts) lift the places whose areas they resemble
 * above all others.
 */

export const MatchPenalty = {
  own: 0,
  namesake: 0.3,
  alternate: 0.2,
  /** Added to an alternate (or weak) exact match when the key is the own name of a capital or of a place of importance sharedFull or more. */
  sharedAlternate: 1.5,
  /** Importance (log10 population + seat bonus, datasets/places/importance.ts) of the name's own place below which the shared penalty is 0. */
  sharedFrom: 5.7,
  /** Importance from which it is the whole sharedAlternate; linear in between. */
  sharedFull: 6.2,
  /** Seat bonus from which the shared penalty is whole whatever the importance (a capital's name means the capital). */
  sharedSeat: 0.2,
  weak: 2.5,
  ownPrefix: 0.7,
  /** Prefix of an alternate name that takes part in typo matching (an exonym or own-language name of an important place). */
  knownAlternatePrefix: 2.5,
  alternatePrefix: 5,
  unliteral: 2.3,
  typo1: 2,
  /** One edit that is two neighbouring letters swapped (the commonest slip of typing): nearer than other edits. */
  transposition: 1.2,
  typo2: 3,
  typoFirstLetter: 0.5,
  /** Added to a typo of an alternate name. */
  typoAlternate: 2,
} as const;

/** The penalty added to an alternate exact match whose text is the own name of a place of importance `owner` and seat bonus `seat`. */
export function sharedAlternatePenalty(owner: number, seat: number): number {
  const { sharedAlternate, sharedFrom, sharedFull, sharedSeat } = MatchPenalty;
  if (seat >= sharedSeat) return sharedAlternate;
  return sharedAlternate * Math.min(1, Math.max(0, (owner - sharedFrom) / (sharedFull - sharedFrom)));
}
