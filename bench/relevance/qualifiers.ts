/**
 * What the population-only baseline knows of regions and countries, to filter the candidates of
 * "name, region" and "name, country" queries: the names of the embedded data, folded
 * (datasets/places/fold.ts), each naming one or more areas.
 * - Regions (GeoNames admin-1 areas, keyed "CC.code"): GeoNames' name and ASCII name
 *   (admin1CodesASCII), Natural Earth's admin-1 `name` and ISO 3166-2 code ("CA-ON" and "ON")
 *   through its `gn_a1_code`.
 * - Countries (ISO2): countryInfo's name, ISO2 and ISO3, CLDR's English names with their short and
 *   variant forms ("Czech Republic", "Ivory Coast", "UK").
 * A qualifier that folds to none of these is unknown; `areas` then gives undefined.
 */
import { readFile } from "node:fs/promises";
import { createRequire } from "node:module";
import path from "node:path";
import { EMBEDDED_DIR } from "../../datasets/common/paths.ts";
import { foldName } from "../../datasets/places/fold.ts";
import { openSource, readLines, readSource } from "../../pipeline/common/source.ts";

export type QualifierKind = "region" | "country";

export class Qualifiers {
  private readonly names: Record<QualifierKind, Map<string, Set<string>>> = { region: new Map(), country: new Map() };

  add(kind: QualifierKind, name: string, area: string): void {
    const key = foldName(name);
    if (key === "") return;
    const set = this.names[kind].get(key);
    if (set === undefined) this.names[kind].set(key, new Set([area]));
    else set.add(area);
  }

  /** admin1CodesASCII lines: code, name, ASCII name, GeoNames id. */
  addAdmin1Lines(lines: Iterable<string>): void {
    for (const line of lines) {
      const [code, name, ascii] = line.split("\t");
      if (code === undefined || name === undefined) continue;
      this.add("region", name, code);
      if (ascii !== undefined) this.add("region", ascii, code);
    }
  }

  /** countryInfo lines: ISO2, ISO3, numeric, FIPS, name, ...; comments skipped. */
  addCountryInfoLines(lines: Iterable<string>): void {
    for (const line of lines) {
      if (line.startsWith("#")) continue;
      const [iso2, iso3, , , name] = line.split("\t");
      if (iso2 === undefined || name === undefined) continue;
      for (const n of [iso2, iso3 ?? "", name]) this.add("country", n, iso2);
    }
  }

  /** The areas ("CC.code" for regions, ISO2 for countries) the text names; undefined when it names none. */
  areas(kind: QualifierKind, text: string): ReadonlySet<string> | undefined {
    return this.names[kind].get(foldName(text));
  }
}

/** The area a GeoNames place lies in, in the keys of `Qualifiers.areas`. */
export const areaOf = (kind: QualifierKind, place: { cc: string; admin1: string }): string => (kind === "country" ? place.cc : `${place.cc}.${place.admin1}`);

const PROPERTIES = /"properties"\s*:\s*(\{[^{}]*\})/g;

async function lines(file: string): Promise<string[]> {
  const out: string[] = [];
  for await (const { line } of readLines((await openSource(file)).stream)) out.push(line);
  return out;
}

export async function loadQualifiers(): Promise<Qualifiers> {
  const q = new Qualifiers();
  q.addAdmin1Lines(await lines(path.join(EMBEDDED_DIR, "geonames", "admin1CodesASCII.txt.gz")));
  const ne = await readSource(path.join(EMBEDDED_DIR, "naturalearth", "ne_10m_admin_1_states_provinces.geojson.gz"));
  for (const m of ne.toString("utf8").matchAll(PROPERTIES)) {
    const p = JSON.parse(m[1]!) as Record<string, unknown>;
    if (typeof p.gn_a1_code !== "string" || !/^[A-Z]{2}\.\w+$/.test(p.gn_a1_code)) continue;
    if (typeof p.name === "string") q.add("region", p.name, p.gn_a1_code);
    if (typeof p.iso_3166_2 === "string" && /^[A-Z]{2}-\w+$/.test(p.iso_3166_2)) {
      q.add("region", p.iso_3166_2, p.gn_a1_code);
      q.add("region", p.iso_3166_2.slice(3), p.gn_a1_code);
    }
  }
  q.addCountryInfoLines(await lines(path.join(EMBEDDED_DIR, "geonames", "countryInfo.txt.gz")));
  const cldr = createRequire(import.meta.url).resolve("cldr-localenames-full/main/en/territories.json");
  const territories = (JSON.parse(await readFile(cldr, "utf8")) as { main: { en: { localeDisplayNames: { territories: Record<string, string> } } } }).main.en.localeDisplayNames.territories;
  for (const [key, name] of Object.entries(territories)) if (/^[A-Z]{2}(-alt-\w+)?$/.test(key)) q.add("country", name, key.slice(0, 2));
  return q;
}
