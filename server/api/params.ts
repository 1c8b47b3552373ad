/**
 * Parsers of the spec's query parameters into typed values. Each throws an ApiError 400 that
 * names the parameter and the value given. Decisions (README "Parameters"):
 * - lat/lon: a plain decimal number (optional sign, digits, optional fraction); no exponent, hex,
 *   NaN, Infinity, spaces or trailing characters; at most 32 characters; ranges inclusive.
 * - limit: integer 0..100, default 10. offset: integer 0..1,000,000, default 0.
 * - q: trimmed, 1..200 characters, no control characters.
 * - id: trimmed, 1..64 characters, no control characters; endpoints check their own id format.
 */
import { errors } from "./api-error.ts";
import type { Query } from "./query.ts";

const DECIMAL = /^[+-]?(?:\d+(?:\.\d*)?|\.\d+)$/;
const MAX_NUMBER_CHARS = 32;
const INTEGER = /^\d+$/;
// C0 and C1 control characters (a tab or newline in a search text is a client bug, not a query).
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/;

export const LIMIT_DEFAULT = 10;
export const LIMIT_MAX = 100;
export const OFFSET_MAX = 1_000_000;
export const Q_MAX_CHARS = 200;
export const ID_MAX_CHARS = 64;

export function parseDecimal(name: string, raw: string, min: number, max: number): number {
  const value = raw.length === 0 || raw.length > MAX_NUMBER_CHARS || !DECIMAL.test(raw) ? NaN : Number(raw);
  // The message is written only for a refusal: every request parses a decimal or two.
  if (!Number.isFinite(value) || value < min || value > max) throw errors.invalidParameter(name, raw, `a decimal number from ${min} to ${max}`);
  // -0 would print as 0 but compare oddly in maps; normalise.
  return value === 0 ? 0 : value;
}

export function parseLatitude(query: Query, name = "lat"): number {
  return parseDecimal(name, query.require(name), -90, 90);
}

export function parseLongitude(query: Query, name = "lon"): number {
  return parseDecimal(name, query.require(name), -180, 180);
}

export function parseBoundedInteger(name: string, raw: string | undefined, fallback: number, max: number): number {
  if (raw === undefined) return fallback;
  const value = !INTEGER.test(raw) || raw.length > 10 ? NaN : Number(raw);
  if (!(value <= max)) throw errors.invalidParameter(name, raw, `an integer from 0 to ${max}`);
  return value;
}

export function parseLimit(query: Query): number {
  return parseBoundedInteger("limit", query.get("limit"), LIMIT_DEFAULT, LIMIT_MAX);
}

export function parseOffset(query: Query): number {
  return parseBoundedInteger("offset", query.get("offset"), 0, OFFSET_MAX);
}

export function parseText(name: string, raw: string | undefined, maxChars: number): string {
  if (raw === undefined) throw errors.missingParameter(name);
  const trimmed = raw.trim();
  // Characters are code points; a text of at most maxChars UTF-16 units has no more of them (no count needed).
  if (trimmed.length === 0 || (trimmed.length > maxChars && [...trimmed].length > maxChars) || CONTROL.test(trimmed)) {
    throw errors.invalidParameter(name, raw, `a non-empty text of at most ${maxChars} characters without control characters`);
  }
  return trimmed;
}

export function parseQ(query: Query): string {
  return parseText("q", query.get("q"), Q_MAX_CHARS);
}

export function parseId(query: Query): string {
  return parseText("id", query.get("id"), ID_MAX_CHARS);
}
