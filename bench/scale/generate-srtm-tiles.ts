/**
 * Scale rehearsal input: the global SRTM 3" tile set (60°N to 56°S) as the nightly downloads it,
 * `<OUT>/elevation-tiles-prod.s3.amazonaws.com/skadi/{latBand}/{tile}.hgt.gz` (the checked-in
 * configuration's template, for `--mirror`), plus a nightly configuration listing every tile.
 *
 * No list of the real set's tile names is available offline, so the names are those of the 1°
 * cells between 56°S and 60°N that hold land by three real sources of the shared data, joined:
 * an ETOPO5 sample above sea level (13,167 cells), a GeoNames cities500 place (+296), a vertex of
 * a Natural Earth 10 m admin-1 polygon (coasts and islands, +567): 14,030 names (the real set has
 * about 14,300). Every tile's content is one of the two real SRTM 3" tiles of the shared data
 * (N00E010, N00E011: 1201 x 1201, Gabon), gzip-compressed as the skadi tiles are, alternating by
 * cell; the files are hard links to those two, so the mirror takes 3.5 MB on disk.
 *
 *   npx tsx bench/scale/generate-srtm-tiles.ts OUT_DIR
 */
import { promises as fs, readFileSync } from "node:fs";
import path from "node:path";
import { gunzipSync, gzipSync } from "node:zlib";
import { EMBEDDED_DIR, SHARED_DATA_DIR } from "../../datasets/common/paths.ts";
import { readGeoTiffDem } from "../../pipeline/elevation/geotiff-source.ts";
import { rewrapToMinus180 } from "../../pipeline/elevation/rewrap.ts";
import { listZipEntries, openZipEntry } from "../../pipeline/common/zip.ts";
import { readPlaces } from "../http-mixes.ts";

const HOST_PATH = "elevation-tiles-prod.s3.amazonaws.com/skadi";
const SOUTH = -56;
const NORTH = 59; // the last row of cells: 59°N to 60°N

function tileName(lat: number, lon: number): string {
  return `${lat < 0 ? "S" : "N"}${String(Math.abs(lat)).padStart(2, "0")}${lon < 0 ? "W" : "E"}${String(Math.abs(lon)).padStart(3, "0")}`;
}

/** Cells with an ETOPO5 sample above 0 m among the pixel centres of the closed cell. */
async function etopoLand(): Promise<Set<string>> {
  const raster = await readGeoTiffDem(path.join(EMBEDDED_DIR, "dem", "etopo5.tif"));
  const { grid: g, samples: s } = rewrapToMinus180(raster.grid, raster.samples);
  const res = g.resLatArcsec / 3600;
  const out = new Set<string>();
  for (let lat = SOUTH; lat <= NORTH; lat++) {
    for (let lon = -180; lon <= 179; lon++) {
      let land = false;
      for (let row = Math.ceil((g.lat0 - (lat + 1)) / res - 1e-9); row <= Math.floor((g.lat0 - lat) / res + 1e-9) && !land; row++) {
        for (let col = Math.ceil((lon - g.lon0) / res - 1e-9); col <= Math.floor((lon + 1 - g.lon0) / res + 1e-9); col++) {
          if (s[row * g.width + (((col % g.width) + g.width) % g.width)]! > 0) {
            land = true;
            break;
          }
        }
      }
      if (land) out.add(`${lat},${lon}`);
    }
  }
  return out;
}

function addCell(set: Set<string>, lat: number, lon: number): void {
  const la = Math.floor(lat);
  const lo = Math.floor(lon);
  if (la >= SOUTH && la <= NORTH && lo >= -180 && lo <= 179) set.add(`${la},${lo}`);
}

async function tileNames(): Promise<{ names: string[]; counts: Record<string, number> }> {
  const cells = await etopoLand();
  const counts: Record<string, number> = { etopo5: cells.size };
  let before = cells.size;
  for (const p of await readPlaces()) addCell(cells, p.lat, p.lon);
  counts.cities500 = cells.size - before;
  before = cells.size;
  const ne = JSON.parse(gunzipSync(readFileSync(path.join(SHARED_DATA_DIR, "naturalearth", "ne_10m_admin_1_states_provinces.geojson.gz"))).toString("utf8")) as { features: { geometry: { coordinates: unknown } }[] };
  const visit = (c: unknown): void => {
    if (Array.isArray(c) && typeof c[0] === "number") addCell(cells, c[1] as number, c[0] as number);
    else if (Array.isArray(c)) for (const x of c) visit(x);
  };
  for (const f of ne.features) visit(f.geometry.coordinates);
  counts.naturalEarth = cells.size - before;
  const names = [...cells].map((k) => k.split(",").map(Number) as [number, number]).sort((a, b) => a[0] - b[0] || a[1] - b[1]).map(([la, lo]) => tileName(la, lo));
  return { names, counts };
}

async function realTiles(): Promise<Buffer[]> {
  const dir = path.join(SHARED_DATA_DIR, "dem", "srtm3");
  const n00e010 = readFileSync(path.join(dir, "N00E010.hgt"));
  const zip = path.join(dir, "N00E011.hgt.zip");
  const entry = (await listZipEntries(zip)).find((e) => e.name.endsWith(".hgt"))!;
  const chunks: Buffer[] = [];
  for await (const c of await openZipEntry(zip, entry)) chunks.push(c as Buffer);
  const n00e011 = Buffer.concat(chunks);
  for (const t of [n00e010, n00e011]) if (t.length !== 1201 * 1201 * 2) throw new Error(`expected a 1201 x 1201 SRTM3 tile, got ${t.length} bytes`);
  return [gzipSync(n00e010), gzipSync(n00e011)];
}

const out = process.argv[2];
if (!out) throw new Error("usage: generate-srtm-tiles.ts OUT_DIR");
const started = Date.now();
const { names, counts } = await tileNames();
const sources = await realTiles();
const originals = sources.map((_, k) => path.join(out, "real", `${k === 0 ? "N00E010" : "N00E011"}.hgt.gz`));
await fs.mkdir(path.join(out, "real"), { recursive: true });
for (const [k, bytes] of sources.entries()) await fs.writeFile(originals[k]!, bytes);
for (const [k, name] of names.entries()) {
  const file = path.join(out, HOST_PATH, name.slice(0, 3), `${name}.hgt.gz`);
  await fs.mkdir(path.dirname(file), { recursive: true });
  await fs.rm(file, { force: true });
  await fs.link(originals[k % 2]!, file);
}
const config = {
  $comment: "Scale rehearsal of the elevation dataset (docs/rehearsals.md): every SRTM 3\" tile name, read through --mirror from the tree bench/scale/generate-srtm-tiles.ts writes.",
  datasets: {
    elevation: {
      sources: {
        global: [path.join(EMBEDDED_DIR, "dem", "etopo5.tif")],
        srtm: [{ template: `https://${HOST_PATH}/{latBand}/{tile}.hgt.gz`, tiles: names }],
      },
      tolerances: [{ count: "rasters", minRatio: 1 }],
    },
  },
};
await fs.writeFile(path.join(out, "elevation-nightly.config.json"), JSON.stringify(config, null, 1));
process.stderr.write(JSON.stringify({ msg: "SRTM tile set generated", tiles: names.length, namesFrom: counts, tileBytes: sources.map((s) => s.length), config: path.join(out, "elevation-nightly.config.json"), elapsedS: (Date.now() - started) / 1000 }) + "\n");
