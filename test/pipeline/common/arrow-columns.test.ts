/**
 * The Arrow columns filled buffer by buffer must read back exactly as apache-arrow's own builder
 * (`vectorFromArray`, the reference) writes the same values: the strings are real GeoNames names
 * and alternate names (the cities500 excerpt, every script in it), with NULLs among them.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { makeVector, vectorFromArray } from "apache-arrow";
import { describe, expect, it } from "vitest";
import { PROJECT_ROOT } from "../../../datasets/common/paths.ts";
import { ARROW_COLUMNS } from "../../../pipeline/common/arrow-columns.ts";

const rows = readFileSync(path.join(PROJECT_ROOT, "test", "fixtures", "places", "cities500-excerpt.txt"), "utf8")
  .split("\n")
  .filter((l) => l !== "")
  .map((l) => l.split("\t"));

function roundTrip(duckdbType: string, values: unknown[]): { ours: unknown[]; reference: unknown[]; nulls: number } {
  const builder = ARROW_COLUMNS[duckdbType]!;
  const ours = makeVector(builder.data(values));
  const reference = vectorFromArray(values, builder.type());
  return { ours: [...ours], reference: [...reference], nulls: ours.nullCount };
}

describe("ARROW_COLUMNS", () => {
  it("VARCHAR: real names in several scripts, empty strings and NULLs read back as the builder writes them", () => {
    const names = rows.flatMap((r) => [r[1]!, ...r[3]!.split(",")]);
    expect(names.some((n) => /[^\x00-\x7f]/.test(n))).toBe(true);
    const values = names.flatMap((n, i) => (i % 5 === 0 ? [null, n] : i % 7 === 0 ? ["", n] : [n]));
    const { ours, reference, nulls } = roundTrip("VARCHAR", values);
    expect(ours).toEqual(reference);
    expect(ours).toEqual(values);
    expect(nulls).toBe(values.filter((v) => v === null).length);
  });

  it("DOUBLE, UINTEGER and BIGINT: coordinates, ids and populations with NULLs", () => {
    const lat = rows.map((r, i) => (i === 3 ? null : Number(r[4])));
    expect(roundTrip("DOUBLE", lat).ours).toEqual(lat);
    const ids = rows.map((r, i) => (i === 0 ? null : Number(r[0])));
    expect(roundTrip("UINTEGER", ids).ours).toEqual(ids);
    const population = rows.map((r, i) => (i === 1 ? null : BigInt(r[14]!)));
    const p = roundTrip("BIGINT", population);
    expect(p.ours).toEqual(p.reference);
    expect(p.ours).toEqual(population);
  });

  it("BOOLEAN: more than 8 values, so the bits span bytes, with NULLs", () => {
    const values = [true, false, null, true, true, false, false, true, true, null, false, true];
    const { ours, reference, nulls } = roundTrip("BOOLEAN", values);
    expect(ours).toEqual(reference);
    expect(ours).toEqual(values);
    expect(nulls).toBe(2);
  });

  it("an empty chunk", () => {
    expect(roundTrip("VARCHAR", []).ours).toEqual([]);
  });
});
