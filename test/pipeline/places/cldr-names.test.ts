import { describe, expect, it } from "vitest";
import { existsSync } from "node:fs";
import { countryNamesOrFallback, cldrNameFiles, loadCldrNames } from "../../../pipeline/places/cldr-names.ts";
import { LANGUAGE_KEYS } from "../../../datasets/places/admin-types.ts";
import type { LanguageKey } from "../../../datasets/places/admin-types.ts";

// Expected values are facts known outside CLDR: each country's own name for itself (endonyms in
// the official script), and well-known exonyms (Germany is ドイツ in Japanese, Allemagne in French).
const cldr = loadCldrNames();

describe("loadCldrNames: countries", () => {
  it("names Germany in several languages", () => {
    const de = cldr.countries.get("DE")!;
    expect(de.JA).toBe("ドイツ");
    expect(de.DE).toBe("Deutschland");
    expect(de.FR).toBe("Allemagne");
    expect(de.EN).toBe("Germany");
    expect(de.ZH).toBe("德国");
    expect(de.SV).toBe("Tyskland");
  });

  it("uses Brazilian Portuguese for BR, not Breton", () => {
    // Portuguese: Brasil, Alemanha. Breton would say Brazil / Alamagn.
    expect(cldr.countries.get("BR")!.BR).toBe("Brasil");
    expect(cldr.countries.get("DE")!.BR).toBe("Alemanha");
  });

  it("gives each country its endonym in its own language key", () => {
    const endonyms: [string, LanguageKey, string][] = [
      ["NO", "NO", "Norge"],
      ["SE", "SV", "Sverige"],
      ["DK", "DA", "Danmark"],
      ["RS", "SR", "Србија"],
      ["HU", "HU", "Magyarország"],
      ["PL", "PL", "Polska"],
      ["HR", "HR", "Hrvatska"],
      ["SI", "SL", "Slovenija"],
      ["RO", "RO", "România"],
      ["BG", "BG", "България"],
      ["GR", "EL", "Ελλάδα"],
      ["RU", "RU", "Россия"],
      ["ES", "ES", "España"],
      ["IT", "IT", "Italia"],
      ["NL", "NL", "Nederland"],
      ["TR", "TR", "Türkiye"],
      ["JP", "JA", "日本"],
      ["CN", "ZH", "中国"],
      ["EG", "AR", "مصر"],
    ];
    for (const [iso2, key, name] of endonyms) expect(cldr.countries.get(iso2)![key]).toBe(name);
  });

  it("has every language key for every country, and knows XK Kosovo", () => {
    expect(cldr.countries.size).toBeGreaterThanOrEqual(249);
    for (const names of cldr.countries.values()) {
      expect(Object.keys(names).sort()).toEqual([...LANGUAGE_KEYS].sort());
      for (const key of LANGUAGE_KEYS) expect(names[key].length).toBeGreaterThan(0);
    }
    expect(cldr.countries.get("XK")!.EN).toBe("Kosovo");
  });

  it("leaves out GeoNames codes CLDR lacks and falls back to the GeoNames name", () => {
    expect(cldr.countries.has("AN")).toBe(false);
    expect(cldr.countries.has("CS")).toBe(false);
    const an = countryNamesOrFallback(cldr, "AN", "Netherlands Antilles");
    for (const key of LANGUAGE_KEYS) expect(an[key]).toBe("Netherlands Antilles");
    expect(countryNamesOrFallback(cldr, "DE", "Germany").JA).toBe("ドイツ");
  });

  it("lists the files it read", () => {
    const files = cldrNameFiles();
    expect(files).toHaveLength(23);
    for (const file of files) expect(existsSync(file)).toBe(true);
    expect(files.some((f) => /[\\/]pt[\\/]territories\.json$/.test(f))).toBe(true);
    expect(files.some((f) => /[\\/]br[\\/]territories\.json$/.test(f))).toBe(false);
  });
});

describe("loadCldrNames: continents", () => {
  it("keys the seven GeoNames continents", () => {
    expect([...cldr.continents.keys()].sort()).toEqual(["AF", "AN", "AS", "EU", "NA", "OC", "SA"]);
  });

  it("uses the M.49 regions and AQ for Antarctica", () => {
    expect(cldr.continents.get("EU")!.DE).toBe("Europa");
    expect(cldr.continents.get("AS")!.JA).toBe("アジア");
    expect(cldr.continents.get("NA")!.EN).toBe("North America");
    expect(cldr.continents.get("SA")!.ES).toBe("Sudamérica");
    expect(cldr.continents.get("AF")!.FR).toBe("Afrique");
    expect(cldr.continents.get("OC")!.EN).toBe("Oceania");
    expect(cldr.continents.get("AN")!.EN).toBe("Antarctica");
    expect(cldr.continents.get("AN")!.RU).toBe("Антарктида");
  });
});
