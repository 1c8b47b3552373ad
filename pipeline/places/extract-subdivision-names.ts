/**
 * Produces the embedded names extract of Natural Earth admin-1 (`ne_10m_admin_1_names.geojson.gz`):
 * the same features with only the properties the places step reads (SUBDIVISION_PROPERTIES: codes
 * and names, no geometry), gzip level 9. Usage:
 *   npx tsx pipeline/places/extract-subdivision-names.ts <ne_10m_admin_1_states_provinces.geojson[.gz]> <out.geojson.gz>
 */
import { promises as fs } from "node:fs";
import { gunzipSync, gzipSync } from "node:zlib";
import { SUBDIVISION_PROPERTIES } from "./subdivision-codes.ts";

async function main(): Promise<void> {
  const [input, output] = process.argv.slice(2);
  if (!input || !output) throw new Error("usage: extract-subdivision-names.ts <input.geojson[.gz]> <output.geojson.gz>");
  const raw = await fs.readFile(input);
  const doc = JSON.parse((input.endsWith(".gz") ? gunzipSync(raw) : raw).toString("utf8")) as { features: { properties: Record<string, unknown> }[] };
  const features = doc.features.map((f) => ({
    type: "Feature",
    properties: Object.fromEntries(SUBDIVISION_PROPERTIES.filter((k) => f.properties[k] !== undefined && f.properties[k] !== "").map((k) => [k, f.properties[k]])),
    geometry: null,
  }));
  // One feature per line: diffs of a new Natural Earth release stay readable.
  const out = `{"type":"FeatureCollection","features":[\n${features.map((f) => JSON.stringify(f)).join(",\n")}\n]}\n`;
  await fs.writeFile(output, gzipSync(Buffer.from(out, "utf8"), { level: 9 }));
}

await main();
