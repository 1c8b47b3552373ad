/**
 * Admin-1 areas under the codes and names people write, from Natural Earth's admin-1 layer:
 * - ISO 3166-2 codes ("Toronto, ON", "Sydney, NSW"): GeoNames' admin-1 codes are FIPS-style
 *   numbers in many countries (Ontario is CA.08), so the codes people write come from the
 *   `iso_3166_2` ("CA-ON") of the feature whose `gn_a1_code` is GeoNames' "CA.08";
 * - names: `name`, `name_alt` (a `|` list), `name_local`, `woe_name`, `gn_name`, `gns_name` and the
 *   `name_xx` of the languages of the spec's 23 keys that Natural Earth has ("Jawa Barat" and "West
 *   Java" for ID.30, "Gyeonggi-do" and "경기도" for KR.13; Natural Earth's Bengali, Hindi, Greek,
 *   Hebrew, Persian, Urdu and Ukrainian names are left out: they would double the qualifier table for
 *   names hardly typed with a Latin or Cyrillic place name).
 * Where Natural Earth's feature is finer than GeoNames' admin-1 (GB counties, IT provinces, FR
 * departments: their `gn_a1_code` is a GeoNames admin-2 code such as GB.H2 or IT.BA), its names
 * and codes name the GeoNames admin-1 area holding it ("Preston, Lancashire" is a Preston in
 * England; `name_alt` of Bari holds the region's names "Puglia|Apulien"): the admin-1 code that
 * most places with that admin-2 code carry (`admin2ToAdmin1`), else the admin-1 of the country
 * whose name is the feature's `region`, `geonunit` or one of its `name_alt`.
 * Any Natural Earth admin-1 GeoJSON is read (the full upstream file, or the names extract of the
 * embedded default); only the flat `properties` objects are parsed, never the geometries.
 */
import { DataFormatError } from "../../datasets/common/errors.ts";
import { foldName } from "../../datasets/places/fold.ts";
import { readSource, type SourceOptions } from "../common/source.ts";

export interface SubdivisionAlias {
  /** Index into the admin-1 table. */
  index: number;
  /** The texts that name it: "CA-ON" and "ON", "Ontario", "Онтарио", ... */
  names: string[];
}

/** The Natural Earth properties that hold names of the area (plus `name_alt`, a `|` list). */
export const NAME_PROPERTIES = [
  "name", "name_local", "woe_name", "gn_name", "gns_name",
  "name_ar", "name_de", "name_en", "name_es", "name_fr", "name_hu", "name_it", "name_ja", "name_nl", "name_pl",
  "name_pt", "name_ru", "name_sv", "name_tr", "name_zh",
] as const;

/** Properties the places step reads (the names extract keeps exactly these). */
export const SUBDIVISION_PROPERTIES = ["iso_a2", "iso_3166_2", "gn_a1_code", "region", "geonunit", "name_alt", ...NAME_PROPERTIES] as const;

const PROPERTIES = /"properties"\s*:\s*(\{[^{}]*\})/g;
const ISO_3166_2 = /^([A-Z]{2})-([A-Z0-9]{1,3})$/;

export interface SubdivisionInput {
  /** "CC.code" → index into the admin-1 table. */
  admin1Index: ReadonlyMap<string, number>;
  /** "CC.admin2" → the admin-1 index most places with that admin-2 code carry. */
  admin2ToAdmin1: ReadonlyMap<string, number>;
  /** Folded admin-1 names ("CC folded-name") → admin-1 index. */
  admin1ByName: ReadonlyMap<string, number>;
}

export async function readSubdivisionCodes(
  location: string,
  options: SourceOptions,
  input: SubdivisionInput,
): Promise<{ aliases: SubdivisionAlias[]; features: number }> {
  const text = (await readSource(location, options)).toString("utf8");
  const aliases: SubdivisionAlias[] = [];
  let features = 0;
  for (const m of text.matchAll(PROPERTIES)) {
    features++;
    let p: Record<string, unknown>;
    try {
      p = JSON.parse(m[1]!) as Record<string, unknown>;
    } catch (err) {
      throw new DataFormatError({ file: location, offset: m.index }, "a JSON properties object", (err as Error).message);
    }
    const alias = aliasOf(p, input);
    if (alias) aliases.push(alias);
  }
  if (features === 0) throw new DataFormatError({ file: location }, "GeoJSON features with properties", "none");
  return { aliases, features };
}

const text = (v: unknown): string => (typeof v === "string" ? v.trim() : "");

/** The admin-1 area a feature's properties belong to and the texts naming it, or undefined. */
export function aliasOf(p: Record<string, unknown>, input: SubdivisionInput): SubdivisionAlias | undefined {
  const code = text(p.gn_a1_code);
  const country = code.slice(0, 2);
  if (!/^[A-Z]{2}\./.test(code)) return undefined;
  const alternates = text(p.name_alt).split("|").map((s) => s.trim()).filter((s) => s !== "");
  let index = input.admin1Index.get(code);
  const finer = index === undefined;
  if (index === undefined) index = input.admin2ToAdmin1.get(code);
  if (index === undefined) {
    for (const name of [text(p.region), text(p.geonunit), ...alternates]) {
      index = input.admin1ByName.get(`${country} ${foldName(name)}`);
      if (index !== undefined) break;
    }
  }
  if (index === undefined) return undefined;
  const names: string[] = [];
  const iso = ISO_3166_2.exec(text(p.iso_3166_2));
  // A code of a finer feature (GB-LAN) would read as the admin-1's own code: only whole areas give codes.
  if (iso && iso[1] === country && !finer) {
    names.push(iso[0]);
    if (/^[A-Z]+$/.test(iso[2]!)) names.push(iso[2]!);
  }
  for (const k of NAME_PROPERTIES) {
    const name = text(p[k]);
    if (name !== "") names.push(name);
  }
  names.push(...alternates);
  return { index, names };
}
