import { describe, expect, it } from "vitest";
import { aliasOf, type SubdivisionInput } from "../../../pipeline/places/subdivision-codes.ts";

// Properties cut from Natural Earth 10m admin-1 v5.1 (the embedded names extract), a few name_xx kept.
const ontario = { iso_a2: "CA", iso_3166_2: "CA-ON", gn_a1_code: "CA.08", region: "Eastern Canada", geonunit: "Canada", name_alt: "Upper Canada", name: "Ontario", gns_name: "Ontario, Province d'", name_ja: "オンタリオ州" };
const jawaBarat = { iso_a2: "ID", iso_3166_2: "ID-JB", gn_a1_code: "ID.30", geonunit: "Indonesia", name_alt: "Jabar", name: "Jawa Barat", gn_name: "Provinsi Jawa Barat", name_en: "West Java", name_fr: "Java occidental" };
const lancashire = { iso_a2: "GB", iso_3166_2: "GB-LAN", gn_a1_code: "GB.H2", region: "North West", geonunit: "England", name: "Lancashire", gns_name: "Lancashire, County of" };
const bari = { iso_a2: "IT", iso_3166_2: "IT-BA", gn_a1_code: "IT.BA", region: "Apulia", geonunit: "Italy", name_alt: "Apulien|Pouilles|Pouille|Puglia|Puglie", name: "Bari", gn_name: "Provincia di Bari" };

// Admin-1 indexes: 0 CA.08 Ontario, 1 ID.30 West Java, 2 GB.ENG England, 3 IT.13 Apulia.
const input = (admin2ToAdmin1: [string, number][] = []): SubdivisionInput => ({
  admin1Index: new Map([["CA.08", 0], ["ID.30", 1], ["GB.ENG", 2], ["IT.13", 3]]),
  admin2ToAdmin1: new Map(admin2ToAdmin1),
  admin1ByName: new Map([["CA ontario", 0], ["ID west java", 1], ["GB england", 2], ["IT apulia", 3]]),
});

describe("Natural Earth admin-1 codes and names as qualifiers", () => {
  it("gives an admin-1 area its ISO 3166-2 codes and every name", () => {
    expect(aliasOf(ontario, input())).toEqual({ index: 0, names: ["CA-ON", "ON", "Ontario", "Ontario, Province d'", "オンタリオ州", "Upper Canada"] });
    expect(aliasOf(jawaBarat, input())).toEqual({ index: 1, names: ["ID-JB", "JB", "Jawa Barat", "Provinsi Jawa Barat", "West Java", "Java occidental", "Jabar"] });
  });

  it("names the admin-1 area holding a finer feature: by the places' admin-2 codes, else by region or geonunit", () => {
    // No ISO code: GB-LAN would read as a code of all England.
    expect(aliasOf(lancashire, input([["GB.H2", 2]]))).toEqual({ index: 2, names: ["Lancashire", "Lancashire, County of"] });
    expect(aliasOf(lancashire, input())?.index).toBe(2); // geonunit England
    expect(aliasOf(bari, input())).toEqual({ index: 3, names: ["Bari", "Provincia di Bari", "Apulien", "Pouilles", "Pouille", "Puglia", "Puglie"] });
  });

  it("skips a feature it cannot place, or without a GeoNames code", () => {
    expect(aliasOf({ ...bari, region: "", geonunit: "", name_alt: "" }, input())).toBeUndefined();
    expect(aliasOf({ name: "Nowhere" }, input())).toBeUndefined();
    expect(aliasOf({ gn_a1_code: "-1", name: "Kashmir" }, input())).toBeUndefined();
  });
});
