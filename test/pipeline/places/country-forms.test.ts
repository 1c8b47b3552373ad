import { promises as fs } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { gunzipSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { EMBEDDED_DIR } from "../../../datasets/common/paths.ts";
import { foldName } from "../../../datasets/places/fold.ts";
import { COUNTRY_FORMS } from "../../../pipeline/places/country-forms.ts";

describe("the hand-written country forms", () => {
  it("name countries of countryInfo, cite a source, and add only forms GeoNames and CLDR English lack", async () => {
    const info = gunzipSync(await fs.readFile(path.join(EMBEDDED_DIR, "geonames", "countryInfo.txt.gz"))).toString("utf8")
      .split("\n").filter((l) => l && !l.startsWith("#")).map((l) => l.split("\t"));
    const geonames = new Map(info.map((r) => [r[0]!, r[4]!]));
    const territories = (createRequire(import.meta.url)("cldr-localenames-full/main/en/territories.json") as {
      main: { en: { localeDisplayNames: { territories: Record<string, string> } } };
    }).main.en.localeDisplayNames.territories;
    const known = new Set([...geonames.values(), ...Object.values(territories)].map(foldName));
    expect(COUNTRY_FORMS.length).toBeLessThanOrEqual(40);
    for (const [iso2, form, source] of COUNTRY_FORMS) {
      expect(geonames.has(iso2), `${iso2} in countryInfo`).toBe(true);
      expect(source.length, form).toBeGreaterThan(3);
      expect(known.has(foldName(form)), `${form} is already a GeoNames or CLDR name`).toBe(false);
    }
    expect(new Set(COUNTRY_FORMS.map(([, form]) => foldName(form))).size).toBe(COUNTRY_FORMS.length);
  });
});
