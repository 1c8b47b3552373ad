/**
 * What a query's typed characters say beyond its folded key (datasets/places/fold.ts folds them
 * away): a final space or other separator ends the word ("San " is San Salvador or San Antonio, not
 * Santiago), and an apostrophe stands where the name has one ("Ji’a" is Ji’an, not Jiangmen; "Yan’"
 * is Yan’an). Own names that do not carry them are not what was typed: search ranks such prefix
 * matches as it ranks prefixes of alternate names.
 */
import { APOSTROPHE_MARK as MARK, foldKeepingApostrophes } from "../../datasets/places/fold.ts";

export { foldKeepingApostrophes };

const HAS_APOSTROPHE = /['’‘ʼʻ`´]/;
const ENDS_WITH_SEPARATOR = /[\p{P}\p{S}\p{Z}\s]$/u;
const ENDS_WITH_VANISHING = /['’‘ʼʻ`´.]$/;

export interface LiteralQuery {
  /** The text ends with a separator: only names whose word ends there match literally. */
  wordEnd: boolean;
  /** The text's fold with its apostrophes kept (MARK), when it has any; names must start with it. */
  apostrophes: string | undefined;
}

/** The literal constraints of the name part of a query, or undefined when it has none. */
export function literalOf(text: string): LiteralQuery | undefined {
  const wordEnd = ENDS_WITH_SEPARATOR.test(text) && !ENDS_WITH_VANISHING.test(text);
  const folded = HAS_APOSTROPHE.test(text) ? foldKeepingApostrophes(text) : "";
  const apostrophes = folded.includes(MARK) ? folded : undefined;
  if (!wordEnd && apostrophes === undefined) return undefined;
  return { wordEnd, apostrophes };
}
