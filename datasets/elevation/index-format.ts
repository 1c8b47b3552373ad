/**
 * The coverage index of the elevation dataset (`elevation/index.bin`): an enveloped artifact
 * (magic GEODELEV) whose payload is one UTF-8 JSON object listing every DEM tile file, what it
 * covers and at which resolution. Layout: datasets/elevation/FORMAT.md.
 */
import { DataFormatError } from "../common/errors.ts";
import type { DemGrid } from "./grid.ts";

export type DemKind = "tile" | "global";

export interface DemRasterEntry {
  /** File name inside the elevation directory (`srtm3/N00E010.tif`). */
  file: string;
  /** Source name (`srtm1`, `srtm3`, `etopo5`): the first part of the X-Elevation-Source header. */
  source: string;
  /** `tile`: answers only inside its extent. `global`: the fallback everywhere (wraps, clamps at the poles). */
  kind: DemKind;
  grid: DemGrid;
  /** Size of the tile file, bytes. */
  bytes: number;
  /** Pixels that were void in the source. */
  sourceVoids: number;
  /** Of those, filled from a coarser DEM. */
  voidsFilled: number;
  /** Lowest and highest elevation in the tile after filling, metres. */
  min: number;
  max: number;
}

export interface ElevationIndex {
  rasters: DemRasterEntry[];
}

export function encodeIndexPayload(index: ElevationIndex): Uint8Array {
  return Buffer.from(JSON.stringify(index), "utf8");
}

function isNumber(v: unknown): v is number {
  return typeof v === "number" && Number.isFinite(v);
}

/** Parses and checks the payload; `file` and `payloadOffset` locate a fault in messages. */
export function decodeIndexPayload(payload: Uint8Array, file: string, payloadOffset: number): ElevationIndex {
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(payload.buffer, payload.byteOffset, payload.byteLength).toString("utf8"));
  } catch (err) {
    throw new DataFormatError({ file, offset: payloadOffset }, "a JSON elevation index", (err as Error).message);
  }
  const rasters = (parsed as { rasters?: unknown }).rasters;
  if (!Array.isArray(rasters)) throw new DataFormatError({ file, offset: payloadOffset }, "an object with a rasters array", typeof parsed);
  for (const [k, r] of (rasters as DemRasterEntry[]).entries()) {
    const g = r?.grid;
    const ok =
      typeof r?.file === "string" && !r.file.includes("..") && typeof r.source === "string" && (r.kind === "tile" || r.kind === "global") &&
      g !== undefined && [g.width, g.height, g.lon0, g.lat0, g.resLonArcsec, g.resLatArcsec].every(isNumber) && g.width > 0 && g.height > 0 &&
      g.resLonArcsec > 0 && g.resLatArcsec > 0;
    if (!ok) throw new DataFormatError({ file, offset: payloadOffset, field: `rasters[${k}]` }, "file, source, kind and a grid of finite numbers", JSON.stringify(r).slice(0, 200));
  }
  return { rasters: rasters as DemRasterEntry[] };
}

/** `1arcsec`, `3arcsec`, `5arcmin`, `1deg`: the second part of the X-Elevation-Source header. */
export function formatResolution(arcsec: number): string {
  if (arcsec % 3600 === 0) return `${arcsec / 3600}deg`;
  if (arcsec % 60 === 0) return `${arcsec / 60}arcmin`;
  return `${arcsec}arcsec`;
}
