/**
 * The `admin/admin.idx` artifact: the common envelope (magic GEODADMN) around named typed-array
 * sections. `encodeAdminPayload` is the writer's half; `openAdminIndex` the reader's, over a byte
 * source: it checks the table of contents against the payload's size and reads the small tables,
 * and lookups read the rest where it lies. Byte layout: FORMAT.md.
 */
import { openArtifactFile, type BuildMetadata } from "../artifact/envelope.ts";
import type { ByteSource } from "../common/byte-source.ts";
import { DATASETS } from "../catalog.ts";
import { DataFormatError } from "../common/errors.ts";
import { AdminIndex, type AdminAttributes, type AdminRefinement } from "./admin-index.ts";
import { FileLayer } from "./file-layer.ts";
import { featureCount, type PolygonLayer } from "./polygon-layer.ts";
import { encodeSections, SectionTable, type SectionArray, type SectionEntry } from "./sections.ts";
import type { SlotGridLayout } from "./slot-grid.ts";

export const ADMIN_SPEC = DATASETS.admin;

/** Everything the file holds, in the pipeline's memory. */
export interface AdminArtifact {
  layout: SlotGridLayout;
  /** Two words per slot (FORMAT.md, "Slots"). */
  slots: Uint32Array;
  /** Pairs (admin feature, timezone feature) of single-answer slots. */
  answers: Uint32Array;
  /** The boundary records, one after the other (boundary-record.ts). */
  records: Uint8Array;
  admin: PolygonLayer;
  tz: PolygonLayer;
  refinement: AdminRefinement;
  attributes: AdminAttributes;
  /** The countries as simplified GeoJSON (UTF-8). */
  worldMap: Uint8Array;
}

function layerSections(prefix: string, l: PolygonLayer): [string, SectionArray][] {
  return [
    [`${prefix}.xy`, l.xy],
    [`${prefix}.chainStart`, l.chainStart],
    [`${prefix}.chainBox`, l.chainBox],
    [`${prefix}.chainChunkStart`, l.chainChunkStart],
    [`${prefix}.chunkBox`, l.chunkBox],
    [`${prefix}.featureChainStart`, l.featureChainStart],
    [`${prefix}.featureBox`, l.featureBox],
  ];
}

/** Payload chunks and the metadata `extra` (table of contents, resolution) of an index. */
export function encodeAdminPayload(data: AdminArtifact): { chunks: Uint8Array[]; extra: { res: number; sections: SectionEntry[] } } {
  const L = data.layout;
  const { chunks, toc } = encodeSections([
    ["grid.faceJMin", L.faceJMin],
    ["grid.faceRowStart", L.faceRowStart],
    ["grid.rowIMin", L.rowIMin],
    ["grid.rowCount", L.rowCount],
    ["grid.rowSlotStart", L.rowSlotStart],
    ["slots", data.slots],
    ["answers", data.answers],
    ["records", data.records],
    ...layerSections("admin", data.admin),
    ...layerSections("tz", data.tz),
    ["refine.featureStart", data.refinement.featureStart],
    ["refine.lat", data.refinement.lat],
    ["refine.lon", data.refinement.lon],
    ["refine.code", data.refinement.code],
    ["attributes", new Uint8Array(Buffer.from(JSON.stringify(data.attributes), "utf8"))],
    ["worldMap", data.worldMap],
  ]);
  return { chunks, extra: { res: L.res, sections: toc } };
}

/**
 * Checks what a lookup relies on and can be checked without reading the big sections, so that a
 * damaged or foreign file fails at open, not per request. What lies in the records and vertices is
 * checked as it is read (a DataFormatError naming the slot).
 */
function checkStructure(index: AdminIndex, t: SectionTable, layout: SlotGridLayout, answers: Uint32Array, refinement: AdminRefinement): void {
  const fail = (field: string, expected: string, got: string | number): never => {
    throw new DataFormatError({ file: t.file, field }, expected, String(got));
  };
  const slots = layout.rowSlotStart[layout.rowSlotStart.length - 1]!;
  const rows = layout.rowIMin.length;
  if (layout.faceRowStart.length !== 21 || layout.faceJMin.length !== 20) fail("grid.faceRowStart", "20 faces", layout.faceJMin.length);
  if (layout.faceRowStart[20] !== rows || layout.rowCount.length !== rows || layout.rowSlotStart.length !== rows + 1) fail("grid.rowSlotStart", `${rows} rows`, `${layout.faceRowStart[20]}/${layout.rowCount.length}/${layout.rowSlotStart.length - 1}`);
  if (t.entry("slots", "u32").length !== 2 * slots) fail("slots", `${2 * slots} words (2 per slot)`, t.entry("slots", "u32").length);
  const a = index.attributes;
  const adminFeatures = featureCount(index.admin);
  const tzFeatures = featureCount(index.tz);
  for (let k = 0; k < answers.length; k++) {
    const f = answers[k]!;
    if (f !== 0xffffffff && f >= (k % 2 === 0 ? adminFeatures : tzFeatures)) fail("answers", "feature ids in range", `${f} at ${k}`);
  }
  if (refinement.featureStart.length !== adminFeatures + 1) fail("refine.featureStart", "one entry per admin feature + 1", refinement.featureStart.length);
  const places = refinement.lat.length;
  if (refinement.featureStart[adminFeatures] !== places || refinement.lon.length !== places || refinement.code.length !== places) {
    fail("refine.lat", `${refinement.featureStart[adminFeatures]} places`, `${places}/${refinement.lon.length}/${refinement.code.length}`);
  }
  for (let k = 0; k < places; k++) if (refinement.code[k]! >= a.refineCodes.length) fail("refine.code", `codes below ${a.refineCodes.length}`, refinement.code[k]!);
  if (a.iso2?.length !== adminFeatures || a.admin1?.length !== adminFeatures) fail("attributes.iso2", `${adminFeatures} entries (one per admin feature)`, a.iso2?.length);
  if (a.tzid?.length !== tzFeatures) fail("attributes.tzid", `${tzFeatures} entries (one per timezone feature)`, a.tzid?.length);
  if (a.tzCountry?.length !== tzFeatures) fail("attributes.tzCountry", `${tzFeatures} entries (one per timezone feature)`, a.tzCountry?.length);
}

/** Opens the index over a byte source whose metadata the envelope has checked. */
export function openAdminIndex(source: ByteSource, metadata: BuildMetadata, file: string): AdminIndex {
  const extra = metadata.extra as { res?: unknown; sections?: unknown };
  if (typeof extra.res !== "number" || !Array.isArray(extra.sections)) {
    throw new DataFormatError({ file, field: "metadata.extra" }, "res and sections", JSON.stringify(Object.keys(extra)));
  }
  const t = new SectionTable(source, extra.sections as SectionEntry[], metadata.payloadBytes, file);
  let attributes: AdminAttributes;
  try {
    attributes = JSON.parse(Buffer.from(t.u8("attributes")).toString("utf8")) as AdminAttributes;
  } catch (err) {
    if (err instanceof DataFormatError) throw err;
    throw new DataFormatError({ file, field: "attributes" }, "JSON attributes", (err as Error).message);
  }
  const layout: SlotGridLayout = {
    res: extra.res,
    faceJMin: t.i32("grid.faceJMin"),
    faceRowStart: t.i32("grid.faceRowStart"),
    rowIMin: t.i32("grid.rowIMin"),
    rowCount: t.i32("grid.rowCount"),
    rowSlotStart: t.i32("grid.rowSlotStart"),
  };
  const answers = t.u32("answers");
  const refinement: AdminRefinement = { featureStart: t.u32("refine.featureStart"), lat: t.f64("refine.lat"), lon: t.f64("refine.lon"), code: t.u32("refine.code") };
  const records = t.entry("records", "u8");
  const worldMap = t.entry("worldMap", "u8");
  const index = new AdminIndex({
    source,
    file,
    layout,
    slotsAt: t.entry("slots", "u32").offset,
    recordsAt: records.offset,
    recordsBytes: records.length,
    worldMapAt: worldMap.offset,
    worldMapBytes: worldMap.length,
    answers,
    admin: new FileLayer(source, t, "admin", true),
    tz: new FileLayer(source, t, "tz", false),
    refinement,
    attributes,
  });
  checkStructure(index, t, layout, answers, refinement);
  return index;
}

/** Opens admin.idx where it lies: the envelope's header checked, the index's tables read, nothing else. */
export function openAdminFile(file: string): { index: AdminIndex; metadata: BuildMetadata } {
  return openArtifactFile(file, ADMIN_SPEC, (source, metadata) => openAdminIndex(source, metadata, file));
}
