/**
 * The ranking model of forward geocoding: every matching place gets one score, its best over the
 * ways it matched, and results are ordered by score (descending), ties by rank (the index order,
 * i.e. importance then GeoNames id): a total order, so offset paging never repeats or skips.
 *
 *   score = log10(population + 1) - feature malus + [seat bonus] - match penalty
 *
 * All terms are in orders of magnitude of population (datasets/places/importance.ts). The match
 * penalty says how sure we are that the text means this place:
 * - own name (GeoNames or ASCII name), exact: 0, and only here does the capital/seat bonus count;
 * - alternate name, exact: 1.5; 2 when the text is also another place's own name (an ambiguous
 *   alternate such as Victoria for Hong Kong, Philadelphia for Amman, Dili for Delhi: the place
 *   called so comes first unless the other is some 100 times larger);
 * - historic, colloquial or code name (alternateNamesV2 flags), exact: 1 more than an alternate;
 * - prefix of an own name: 1.5 (Lagos, 9 million, before the village of Lago for "Lago";
 *   an exact own name still wins against a prefix of anything less than ~30 times larger);
 * - prefix of an alternate name only: 3.5 (names in other languages rarely mean a place typed by
 *   its first letters: "São P" is São Paulo, not Luanda's old Portuguese name);
 * - typo of an own name: 2 for one edit, 3 for two (London for "ondon", Changzhou before
 *   Hangzhou for "Changzhuo").
 * Qualifiers only filter; they do not change the score.
 */

export const MatchPenalty = {
  own: 0,
  alternate: 1.5,
  /** Added to an alternate (or weak) exact match when the key is another place's own name. */
  sharedAlternate: 0.5,
  weak: 2.5,
  ownPrefix: 1.5,
  alternatePrefix: 3.5,
  typo1: 2,
  typo2: 3,
} as const;
