/**
 * The `admin/admin.idx` artifact: the common envelope (magic GEODADMN) around named typed-array
 * sections. `encodeAdminPayload` is the writer's half, `openAdminIndex` the reader's (zero-copy
 * views into the file's buffer). Byte layout: FORMAT.md.
 */
import { openEnvelopeWork, type BuildMetadata } from "../artifact/envelope.ts";
import { finishNow, type Work } from "../common/work.ts";
import { DATASETS } from "../catalog.ts";
import { DataFormatError } from "../common/errors.ts";
import { AdminIndex, type AdminAttributes, type AdminIndexData, type LayerCandidates } from "./admin-index.ts";
import type { PolygonLayer } from "./polygon-layer.ts";
import { encodeSections, SectionReader, type SectionArray, type SectionEntry } from "./sections.ts";

export const ADMIN_SPEC = DATASETS.admin;

function layerSections(prefix: string, l: PolygonLayer): [string, SectionArray][] {
  return [
    [`${prefix}.xs`, l.xs],
    [`${prefix}.ys`, l.ys],
    [`${prefix}.chainStart`, l.chainStart],
    [`${prefix}.featureChainStart`, l.featureChainStart],
    [`${prefix}.featureBox`, l.featureBox],
  ];
}

function candidateSections(prefix: string, c: LayerCandidates): [string, SectionArray][] {
  return [
    [`${prefix}.candOffset`, c.candOffset],
    [`${prefix}.candFeature`, c.candFeature],
    [`${prefix}.candRunOffset`, c.candRunOffset],
    [`${prefix}.runStart`, c.runStart],
    [`${prefix}.runCount`, c.runCount],
  ];
}

/** Payload chunks and the metadata `extra` (table of contents, resolution) of an index. */
export function encodeAdminPayload(data: AdminIndexData): { chunks: Uint8Array[]; extra: { res: number; sections: SectionEntry[] } } {
  const L = data.layout;
  const { chunks, toc } = encodeSections([
    ["grid.faceJMin", L.faceJMin],
    ["grid.faceRowStart", L.faceRowStart],
    ["grid.rowIMin", L.rowIMin],
    ["grid.rowCount", L.rowCount],
    ["grid.rowSlotStart", L.rowSlotStart],
    ["slotWord", data.slotWord],
    ["answers", data.answers],
    ["boundaryGeom", data.boundaryGeom],
    ...layerSections("admin", data.admin),
    ...layerSections("tz", data.tz),
    ...candidateSections("adminCand", data.adminCandidates),
    ...candidateSections("tzCand", data.tzCandidates),
    ["refine.featureStart", data.refinement.featureStart],
    ["refine.lat", data.refinement.lat],
    ["refine.lon", data.refinement.lon],
    ["refine.code", data.refinement.code],
    ["attributes", new Uint8Array(Buffer.from(JSON.stringify(data.attributes), "utf8"))],
  ]);
  return { chunks, extra: { res: L.res, sections: toc } };
}

function readLayer(r: SectionReader, prefix: string): PolygonLayer {
  return {
    xs: r.f64(`${prefix}.xs`),
    ys: r.f64(`${prefix}.ys`),
    chainStart: r.u32(`${prefix}.chainStart`),
    featureChainStart: r.u32(`${prefix}.featureChainStart`),
    featureBox: r.f64(`${prefix}.featureBox`),
  };
}

function readCandidates(r: SectionReader, prefix: string): LayerCandidates {
  return {
    candOffset: r.u32(`${prefix}.candOffset`),
    candFeature: r.u32(`${prefix}.candFeature`),
    candRunOffset: r.u32(`${prefix}.candRunOffset`),
    runStart: r.u32(`${prefix}.runStart`),
    runCount: r.u32(`${prefix}.runCount`),
  };
}

/** Checks the cross-references a lookup relies on, so a damaged file fails at load, not per request. */
function* checkStructure(d: AdminIndexData, file: string): Work<void> {
  const fail = (field: string, expected: string, got: string): never => {
    throw new DataFormatError({ file, field }, expected, got);
  };
  const slots = d.layout.rowSlotStart[d.layout.rowSlotStart.length - 1]!;
  if (d.slotWord.length !== slots) fail("slotWord", `${slots} slots`, String(d.slotWord.length));
  const records = d.boundaryGeom.length / 6;
  for (const [name, layer, cand] of [["admin", d.admin, d.adminCandidates], ["tz", d.tz, d.tzCandidates]] as const) {
    const features = layer.featureChainStart.length - 1;
    if (layer.ys.length !== layer.xs.length) fail(`${name}.ys`, `${layer.xs.length} latitudes`, String(layer.ys.length));
    if (layer.chainStart[layer.chainStart.length - 1] !== layer.xs.length) fail(`${name}.chainStart`, `chains ending at vertex ${layer.xs.length}`, String(layer.chainStart[layer.chainStart.length - 1]));
    if (cand.candOffset.length !== records + 1) fail(`${name}Cand.candOffset`, `${records + 1} offsets`, String(cand.candOffset.length));
    for (let k = 0; k < cand.candFeature.length; k++) {
      if ((k & 0xffff) === 0xffff) yield;
      if ((cand.candFeature[k]! & 0x7fffffff) >= features) fail(`${name}Cand.candFeature`, `features below ${features}`, String(cand.candFeature[k]! & 0x7fffffff));
    }
    for (let k = 0; k < cand.runStart.length; k++) {
      if ((k & 0xffff) === 0xffff) yield;
      if (cand.runStart[k]! + cand.runCount[k]! >= layer.xs.length) fail(`${name}Cand.runStart`, `runs within ${layer.xs.length} vertices`, `${cand.runStart[k]}+${cand.runCount[k]}`);
    }
  }
  const answers = d.answers.length / 2;
  for (let s = 0; s < slots; s++) {
    if ((s & 0xffff) === 0xffff) yield;
    const w = d.slotWord[s]!;
    if (w === 0xffffffff) continue;
    if (w >= 0x80000000 ? (w & 0x7fffffff) >= records : w >= answers) fail("slotWord", "answer or record numbers in range", `${w} at slot ${s}`);
  }
  const rf = d.refinement;
  if (rf.featureStart.length !== d.admin.featureChainStart.length) fail("refine.featureStart", "one entry per admin feature + 1", String(rf.featureStart.length));
  if (rf.featureStart[rf.featureStart.length - 1] !== rf.lat.length || rf.lon.length !== rf.lat.length || rf.code.length !== rf.lat.length) {
    fail("refine.lat", `${rf.featureStart[rf.featureStart.length - 1]} places`, `${rf.lat.length}/${rf.lon.length}/${rf.code.length}`);
  }
  for (let k = 0; k < rf.code.length; k++) if (rf.code[k]! >= d.attributes.refineCodes.length) fail("refine.code", `codes below ${d.attributes.refineCodes.length}`, String(rf.code[k]));
  if (d.attributes.iso2.length !== d.admin.featureChainStart.length - 1) fail("attributes.iso2", "one entry per admin feature", String(d.attributes.iso2.length));
  if (d.attributes.tzid.length !== d.tz.featureChainStart.length - 1) fail("attributes.tzid", "one entry per timezone feature", String(d.attributes.tzid.length));
  if (d.attributes.tzCountry?.length !== d.tz.featureChainStart.length - 1) fail("attributes.tzCountry", "one entry per timezone feature", String(d.attributes.tzCountry?.length));
}

/** Opens the artifact held in memory (checks envelope, checksum and structure). */
export function openAdminIndex(bytes: Uint8Array, file: string): { index: AdminIndex; metadata: BuildMetadata } {
  return finishNow(openAdminIndexWork(bytes, file));
}

/** openAdminIndex as work that yields between parts of its checks and index (datasets/common/work.ts). */
export function* openAdminIndexWork(bytes: Uint8Array, file: string): Work<{ index: AdminIndex; metadata: BuildMetadata }> {
  const opened = yield* openEnvelopeWork(bytes, { magic: ADMIN_SPEC.magic, formatVersion: ADMIN_SPEC.formatVersion, file });
  // Typed views need an 8-byte aligned payload; a pooled Buffer may not give one.
  const payload = opened.payload.byteOffset % 8 === 0 ? opened.payload : new Uint8Array(opened.payload);
  const extra = opened.metadata.extra as { res?: unknown; sections?: unknown };
  if (typeof extra.res !== "number" || !Array.isArray(extra.sections)) {
    throw new DataFormatError({ file, field: "metadata.extra" }, "res and sections", JSON.stringify(Object.keys(extra)));
  }
  const r = new SectionReader(payload, extra.sections as SectionEntry[], file);
  let attributes: AdminAttributes;
  try {
    attributes = JSON.parse(Buffer.from(r.u8("attributes")).toString("utf8")) as AdminAttributes;
  } catch (err) {
    throw new DataFormatError({ file, field: "attributes" }, "JSON attributes", (err as Error).message);
  }
  const data: AdminIndexData = {
    layout: {
      res: extra.res,
      faceJMin: r.i32("grid.faceJMin"),
      faceRowStart: r.i32("grid.faceRowStart"),
      rowIMin: r.i32("grid.rowIMin"),
      rowCount: r.i32("grid.rowCount"),
      rowSlotStart: r.i32("grid.rowSlotStart"),
    },
    slotWord: r.u32("slotWord"),
    answers: r.u32("answers"),
    boundaryGeom: r.f64("boundaryGeom"),
    admin: readLayer(r, "admin"),
    tz: readLayer(r, "tz"),
    adminCandidates: readCandidates(r, "adminCand"),
    tzCandidates: readCandidates(r, "tzCand"),
    refinement: {
      featureStart: r.u32("refine.featureStart"),
      lat: r.f64("refine.lat"),
      lon: r.f64("refine.lon"),
      code: r.u32("refine.code"),
    },
    attributes,
  };
  yield* checkStructure(data, file);
  return { index: yield* AdminIndex.build(data), metadata: opened.metadata };
}
