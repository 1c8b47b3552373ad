/**
 * The static importance of a place: the one formula the pipeline ranks places by (their order in
 * the search index) and the server scores matches with (server/places/ranking.ts).
 *
 * importance = log10(population + 1) + seat bonus - feature malus
 *
 * The seat bonus (capitals and administrative seats) is a tie-breaker, a few tens of percent of
 * population at most (PPLC +0.3 is a factor of 2): ranked against GeoNames' own populations, a
 * larger bonus puts Kōchi (JP, prefecture seat, 330,000) before Kochi (IN, 630,000) or Hamilton
 * (NZ) before Hamilton (CA, three times its size). The malus pushes sections, historical places and
 * non-settlement features down; sections (PPLX, city districts with their own GeoNames
 * population) only a little (0.2): a larger malus put smaller towns before them against GeoNames'
 * populations on the relevance bench's tuning part. Places are stored in descending importance (ties by ascending
 * GeoNames id), so a place's index in the search index is its rank.
 */

const SEAT_BONUS: Readonly<Record<string, number>> = {
  PPLC: 0.3,
  PPLG: 0.2,
  PPLA: 0.2,
  PPLA2: 0.1,
  PPLA3: 0.08,
  PPLA4: 0.05,
  PPLA5: 0.05,
  PCLI: 0.3,
  PCLD: 0.2,
  ADM1: 0.1,
};

const CODE_MALUS: Readonly<Record<string, number>> = {
  PPLX: 0.2,
  PPLCH: 0.5,
  PPLH: 1,
  PPLQ: 1,
  PPLW: 1,
};

/** Feature classes other than populated places (P) and administrative areas (A) rank lower. */
const CLASS_MALUS = 1;

/** log10(population + 1): one unit is an order of magnitude of population. */
export function populationScore(population: number): number {
  return Math.log10(Math.max(0, population) + 1);
}

/** The capital/seat bonus of a feature code (0 for other codes). */
export function seatBonus(featureCode: string): number {
  return SEAT_BONUS[featureCode] ?? 0;
}

/** The malus of sections, historical places and non-settlement features (0 for plain places). */
export function featureMalus(featureClass: string, featureCode: string): number {
  return (CODE_MALUS[featureCode] ?? 0) + (featureClass === "P" || featureClass === "A" ? 0 : CLASS_MALUS);
}

export function importanceOf(featureClass: string, featureCode: string, population: number): number {
  return populationScore(population) + seatBonus(featureCode) - featureMalus(featureClass, featureCode);
}
