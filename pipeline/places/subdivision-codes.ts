/**
 * ISO 3166-2 subdivision codes as qualifiers ("Toronto, ON", "Sydney, NSW", "Vancouver, BC"):
 * GeoNames' admin-1 codes are FIPS-style numbers in many countries (Ontario is CA.08), so the
 * codes people write come from Natural Earth's admin-1 layer, whose features carry both
 * `iso_3166_2` ("CA-ON") and `gn_a1_code` (GeoNames' "CA.08"). Any Natural Earth admin-1 GeoJSON
 * (the full upstream file or the reduced one of the embedded default) is read; only the flat
 * `properties` objects are parsed, never the geometries.
 */
import { DataFormatError } from "../../datasets/common/errors.ts";
import { readSource, type SourceOptions } from "../common/source.ts";

export interface SubdivisionAlias {
  /** Index into the admin-1 table. */
  index: number;
  /** The texts that name it: "CA-ON" and "ON". */
  names: string[];
}

const PROPERTIES = /"properties"\s*:\s*(\{[^{}]*\})/g;
const ISO_3166_2 = /^([A-Z]{2})-([A-Z0-9]{1,3})$/;

export async function readSubdivisionCodes(
  location: string,
  options: SourceOptions,
  admin1Index: ReadonlyMap<string, number>,
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
    const iso = typeof p.iso_3166_2 === "string" ? ISO_3166_2.exec(p.iso_3166_2) : null;
    const index = typeof p.gn_a1_code === "string" ? admin1Index.get(p.gn_a1_code) : undefined;
    // Natural Earth's gn_a1_code is sometimes a GeoNames admin-2 code (GB counties): those are
    // not in admin1CodesASCII and are skipped; so is a code whose country disagrees.
    if (!iso || index === undefined || !(p.gn_a1_code as string).startsWith(`${iso[1]}.`)) continue;
    const names = [iso[0]];
    if (/^[A-Z]+$/.test(iso[2]!)) names.push(iso[2]!);
    aliases.push({ index, names });
  }
  if (features === 0) throw new DataFormatError({ file: location }, "GeoJSON features with properties", "none");
  return { aliases, features };
}
