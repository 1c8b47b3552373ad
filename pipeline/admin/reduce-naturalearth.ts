/**
 * Produces the embedded copy of Natural Earth admin-1: the same GeoJSON with only the properties
 * the `admin` step reads, coordinates untouched (JSON numbers print their shortest exact form),
 * gzip level 9. Usage: npx tsx pipeline/admin/reduce-naturalearth.ts <input.geojson[.gz]> <output.geojson.gz>
 */
import { promises as fs } from "node:fs";
import { gunzipSync, gzipSync } from "node:zlib";
import { NE_PROPERTIES } from "./naturalearth.ts";

async function main(): Promise<void> {
  const [input, output] = process.argv.slice(2);
  if (!input || !output) throw new Error("usage: reduce-naturalearth.ts <input.geojson[.gz]> <output.geojson.gz>");
  const raw = await fs.readFile(input);
  const text = (input.endsWith(".gz") ? gunzipSync(raw) : raw).toString("utf8");
  const doc = JSON.parse(text) as { type: string; features: { type: string; properties: Record<string, unknown>; geometry: unknown }[] };
  const features = doc.features.map((f) => ({
    type: "Feature",
    properties: Object.fromEntries(NE_PROPERTIES.map((k) => [k, f.properties[k]])),
    geometry: f.geometry,
  }));
  const out = JSON.stringify({ type: "FeatureCollection", features });
  await fs.writeFile(output, gzipSync(Buffer.from(out, "utf8"), { level: 9 }));
}

await main();
