/**
 * Loader of the elevation dataset: checks the enveloped index (magic, version, checksum), opens
 * every GeoTIFF it names with our reader and checks each file's size and grid against the index,
 * so a missing, truncated or replaced tile makes the dataset unavailable (503) at startup instead
 * of failing requests later. Tile data is read per lookup, where it lies.
 */
import path from "node:path";
import { DataFormatError } from "../../datasets/common/errors.ts";
import { DemTiff } from "../../datasets/elevation/dem-tiff.ts";
import { decodeIndexPayload } from "../../datasets/elevation/index-format.ts";
import { readCheckedArtifact } from "../datasets/check-envelope.ts";
import type { Loaded, LoadContext } from "../datasets/loader.ts";
import { ElevationStore, resolutionOf, type OpenRaster } from "./elevation-store.ts";

export async function loadElevation(ctx: LoadContext): Promise<Loaded<ElevationStore>> {
  const checked = await readCheckedArtifact(ctx);
  // The payload is a view into the file's buffer: its offset there locates faults in messages.
  const index = decodeIndexPayload(checked.value, ctx.file, checked.value.byteOffset);
  if (index.rasters.length === 0) throw new DataFormatError({ file: ctx.file, field: "rasters" }, "at least one DEM raster", "an empty index");
  const dir = path.dirname(ctx.file);
  const rasters: OpenRaster[] = [];
  try {
    for (const entry of index.rasters) {
      const tiff = DemTiff.open(path.join(dir, entry.file));
      rasters.push({ entry, tiff, resolution: resolutionOf(entry) });
      const g = tiff.layout.grid;
      const e = entry.grid;
      const same = g.width === e.width && g.height === e.height && Math.abs(g.lon0 - e.lon0) < 1e-9 && Math.abs(g.lat0 - e.lat0) < 1e-9 &&
        g.resLonArcsec === e.resLonArcsec && g.resLatArcsec === e.resLatArcsec;
      if (!same || tiff.fileSize !== entry.bytes) {
        throw new DataFormatError({ file: tiff.file }, `the grid and size the index records (${JSON.stringify(e)}, ${entry.bytes} bytes)`, `${JSON.stringify(g)}, ${tiff.fileSize} bytes`);
      }
    }
  } catch (err) {
    for (const r of rasters) r.tiff.close();
    throw err;
  }
  const store = new ElevationStore(rasters);
  const bySource: Record<string, number> = {};
  for (const r of rasters) bySource[`${r.entry.source};${r.resolution}`] = (bySource[`${r.entry.source};${r.resolution}`] ?? 0) + 1;
  return {
    value: store,
    metadata: checked.metadata,
    facts: { rasters: rasters.length, bySource },
    close: () => store.close(),
  };
}
