/**
 * Scale rehearsal input: a GeoNames dump of N rows (default 12,500,000, the size of allCountries)
 * made from the real rows of datasets/embedded/geonames/cities500.zip. Copy k of a row keeps every
 * column except the geonameid (original + k x 20,000,000, above every real id, so ids stay unique)
 * and the coordinates (moved north-east by k x 0.0001°, clamped to the valid range), so the build
 * sees allCountries' row count with real names, codes, populations and feature classes. Names
 * repeat (each about 60 times), which makes the search index's posting lists longer than
 * allCountries' and the rehearsal pessimistic there.
 *
 *   npx tsx bench/scale/generate-geonames.ts OUT.txt [rows]
 */
import { createWriteStream } from "node:fs";
import path from "node:path";
import { createInterface } from "node:readline";
import { EMBEDDED_DIR } from "../../datasets/common/paths.ts";
import { listZipEntries, openZipEntry } from "../../pipeline/common/zip.ts";

const [out, rowsArg] = process.argv.slice(2);
if (!out) throw new Error("usage: generate-geonames.ts OUT.txt [rows]");
const target = Number(rowsArg ?? 12_500_000);
const zip = path.join(EMBEDDED_DIR, "geonames", "cities500.zip");
const entry = (await listZipEntries(zip)).find((e) => e.name.endsWith(".txt"))!;
const rows: string[][] = [];
for await (const line of createInterface({ input: await openZipEntry(zip, entry), crlfDelay: Infinity })) {
  if (line) rows.push(line.split("\t"));
}
const stream = createWriteStream(out);
let written = 0;
for (let k = 0; written < target; k++) {
  let chunk = "";
  for (const c of rows) {
    if (written >= target) break;
    const copy = c.slice();
    copy[0] = String(Number(c[0]) + k * 20_000_000);
    copy[4] = Math.min(90, Number(c[4]) + k * 0.0001).toFixed(5);
    const lon = Number(c[5]) + k * 0.0001;
    copy[5] = (lon > 180 ? lon - 360 : lon).toFixed(5);
    chunk += copy.join("\t") + "\n";
    written++;
    if (chunk.length > 1 << 20) {
      if (!stream.write(chunk)) await new Promise<void>((r) => stream.once("drain", () => r()));
      chunk = "";
    }
  }
  if (chunk && !stream.write(chunk)) await new Promise<void>((r) => stream.once("drain", () => r()));
}
await new Promise<void>((resolve) => stream.end(resolve));
process.stderr.write(JSON.stringify({ out: path.basename(out), rows: written, sourceRows: rows.length }) + "\n");
