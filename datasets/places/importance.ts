/**
 * The static importance of a place, which orders places inside a match tier (exact, prefix,
 * fuzzy): log10(population + 1) plus a bonus by feature code so that capitals and administrative
 * seats come first, and a malus for sections, historical places and non-settlement features.
 * Places are stored in descending importance (ties by ascending GeoNames id), so a place's index
 * in the search index is its rank.
 */

const CODE_BONUS: Readonly<Record<string, number>> = {
  PPLC: 2,
  PPLG: 1,
  PPLA: 1,
  PPLA2: 0.5,
  PPLA3: 0.2,
  PPLA4: 0.1,
  PPLA5: 0.1,
  PCLI: 2,
  PCLD: 1,
  ADM1: 0.5,
  PPLX: -0.5,
  PPLCH: -0.5,
  PPLH: -1,
  PPLQ: -1,
  PPLW: -1,
};

/** Feature classes other than populated places (P) and administrative areas (A) rank lower. */
const CLASS_MALUS = 1;

export function importanceOf(featureClass: string, featureCode: string, population: number): number {
  const bonus = CODE_BONUS[featureCode] ?? 0;
  const malus = featureClass === "P" || featureClass === "A" ? 0 : CLASS_MALUS;
  return Math.log10(Math.max(0, population) + 1) + bonus - malus;
}
