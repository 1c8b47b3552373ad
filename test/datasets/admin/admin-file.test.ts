/**
 * The admin artifact: built from real polygons (Liechtenstein's Natural Earth municipalities and
 * the Europe/Vaduz zone), written, reopened where it lies (positioned reads), and every lookup
 * equal to brute-force point-in-polygon (and, outside every polygon, the nearest within the coast
 * tolerance); truncated, foreign and damaged files refused with the field or offset named, expected
 * against got, never a crash.
 */
import { promises as fs, readFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ADMIN_SPEC, encodeAdminPayload, openAdminFile, openAdminIndex, type AdminArtifact } from "../../../datasets/admin/admin-file.ts";
import type { AdminIndex } from "../../../datasets/admin/admin-index.ts";
import { exactFeatures } from "../../../datasets/admin/exact.ts";
import { memoryAccess } from "../../../datasets/admin/polygon-layer.ts";
import { openEnvelope } from "../../../datasets/artifact/envelope.ts";
import { writeArtifact } from "../../../datasets/artifact/write-artifact.ts";
import { memorySource } from "../../../datasets/common/byte-source.ts";
import { DataFormatError, MissingInputError } from "../../../datasets/common/errors.ts";
import { createLogger } from "../../../datasets/common/log.ts";
import { mulberry32 } from "../../../datasets/common/prng.ts";
import { buildIndex } from "../../../pipeline/admin/build-index.ts";
import { parseFeatureCollection } from "../../../pipeline/admin/geojson.ts";
import { LayerBuilder } from "../../../pipeline/admin/layer-builder.ts";
import { encodeSlots } from "../../../pipeline/admin/records.ts";
import { buildWorldMap } from "../../../pipeline/admin/world-map.ts";

const FIXTURES = path.join(import.meta.dirname, "..", "..", "fixtures", "admin");

let artifact: AdminArtifact;
let dir: string;
let file: string;
let bytes: Buffer;
let index: AdminIndex;

async function write(name: string, data: AdminArtifact, formatVersion = ADMIN_SPEC.formatVersion): Promise<string> {
  const { chunks, extra } = encodeAdminPayload(data);
  const target = path.join(dir, name);
  await writeArtifact(target, { magic: ADMIN_SPEC.magic, formatVersion, kind: "admin", sources: [], counts: {}, extra }, chunks);
  return target;
}

beforeAll(async () => {
  const ne = parseFeatureCollection(readFileSync(path.join(FIXTURES, "ne-admin1-liechtenstein.geojson"), "utf8"), "ne-admin1-liechtenstein.geojson");
  const adminBuilder = new LayerBuilder();
  for (const f of ne) adminBuilder.add(f.rings);
  const vaduz = JSON.parse(readFileSync(path.join(FIXTURES, "geotz-europe-vaduz-chains.json"), "utf8")) as { tzid: string; chains: number[][] };
  const tzBuilder = new LayerBuilder();
  tzBuilder.add(vaduz.chains.map((c) => Float64Array.from(c)));
  const admin = adminBuilder.finish();
  const tz = tzBuilder.finish();
  const built = buildIndex(admin, tz, 4, createLogger({ minLevel: "error" }));
  const attributes = { iso2: ne.map(() => "LI"), admin1: ne.map((f) => String(f.properties.gn_a1_code)), name: ne.map((f) => String(f.properties.name)), tzid: [vaduz.tzid], tzCountry: [""], refineCodes: [] };
  const refinement = { featureStart: new Uint32Array(ne.length + 1), lat: new Float64Array(0), lon: new Float64Array(0), code: new Uint32Array(0) };
  const { slots, records } = encodeSlots(built.data, admin, tz);
  const worldMap = Buffer.from(JSON.stringify(buildWorldMap(admin, attributes.iso2)), "utf8");
  artifact = { layout: built.data.layout, slots, answers: built.data.answers, records, admin, tz, refinement, attributes, worldMap };
  dir = await fs.mkdtemp(path.join(os.tmpdir(), "admin-idx-"));
  file = await write("admin.idx", artifact);
  bytes = await fs.readFile(file);
  index = openAdminFile(file).index;
}, 300_000);

afterAll(async () => {
  index?.close();
  if (dir) await fs.rm(dir, { recursive: true, force: true });
});

describe("admin.idx round trip", () => {
  it("answers like brute force around Liechtenstein, inside and outside, read from the file", () => {
    const admin = memoryAccess(artifact.admin);
    const tz = memoryAccess(artifact.tz);
    const rnd = mulberry32(7);
    let boundaryHits = 0;
    for (let k = 0; k < 20_000; k++) {
      const lat = 46.95 + rnd() * 0.35;
      const lon = 9.35 + rnd() * 0.4;
      const expected = exactFeatures(admin, tz, artifact.attributes, lat, lon);
      expect(index.features(lat, lon)).toEqual(expected);
      expect(index.timezoneFeature(lat, lon)).toBe(expected.tz);
      if (index.slotKind(lat, lon) === "boundary") boundaryHits++;
    }
    // The sample must exercise the boundary records, not only single-answer cells.
    expect(boundaryHits).toBeGreaterThan(1000);
  });

  it("puts Vaduz (GeoNames 47.14151, 9.52154) in Liechtenstein and Europe/Vaduz, Zurich in neither", () => {
    const vaduz = index.lookup(47.14151, 9.52154);
    expect(vaduz.iso2).toBe("LI");
    expect(vaduz.timezone).toBe("Europe/Vaduz");
    expect(index.timezoneAt(47.14151, 9.52154)).toBe("Europe/Vaduz");
    const zurich = index.lookup(47.36667, 8.55);
    expect(zurich.iso2).toBeUndefined();
    // Outside every polygon of this small index: the ocean rule of its longitude.
    expect(zurich.timezone).toBe("Etc/GMT-1");
    expect(index.timezoneAt(47.36667, 8.55)).toBe("Etc/GMT-1");
  });

  it("answers the same from the bytes in memory as from the file", () => {
    const opened = openEnvelope(bytes, { magic: ADMIN_SPEC.magic, formatVersion: ADMIN_SPEC.formatVersion, file });
    const inMemory = openAdminIndex(memorySource(opened.payload), opened.metadata, file);
    const rnd = mulberry32(11);
    for (let k = 0; k < 2000; k++) {
      const lat = 46.95 + rnd() * 0.35;
      const lon = 9.35 + rnd() * 0.4;
      expect(inMemory.lookup(lat, lon)).toEqual(index.lookup(lat, lon));
    }
  });

  it("stores the world map of the docs page as written", () => {
    expect(Buffer.from(index.worldMapJson()).equals(artifact.worldMap)).toBe(true);
  });
});

describe("admin.idx refused with the reader's error", () => {
  it("a truncated file: the payload size expected against the one found", async () => {
    const cut = path.join(dir, "truncated.idx");
    await fs.writeFile(cut, bytes.subarray(0, bytes.length - 8));
    expect(() => openAdminFile(cut)).toThrow(DataFormatError);
    expect(() => openAdminFile(cut)).toThrow(/expected a payload of \d+ bytes, got \d+ bytes \(truncated or padded file\)/);
    await fs.writeFile(cut, bytes.subarray(0, 10));
    expect(() => openAdminFile(cut)).toThrow(/expected at least 16 header bytes, got 10 bytes/);
    await fs.writeFile(cut, bytes.subarray(0, 100));
    expect(() => openAdminFile(cut)).toThrow(/expected metadata of \d+ bytes within the file, got a file of 100 bytes/);
  });

  it("a foreign file: another artifact's magic, an older format version, an empty file, a missing one", async () => {
    const other = path.join(dir, "foreign.idx");
    const foreign = Buffer.from(bytes);
    foreign.write("GEODPLCS", 0, "latin1");
    await fs.writeFile(other, foreign);
    expect(() => openAdminFile(other)).toThrow(/offset 0: expected magic GEODADMN, got "GEODPLCS"/);
    const v3 = Buffer.from(bytes);
    v3.writeUInt32LE(3, 8);
    await fs.writeFile(other, v3);
    expect(() => openAdminFile(other)).toThrow(new RegExp(`expected format version ${ADMIN_SPEC.formatVersion}, got version 3`));
    await fs.writeFile(other, "");
    expect(() => openAdminFile(other)).toThrow(/expected at least 16 header bytes, got 0 bytes/);
    expect(() => openAdminFile(path.join(dir, "absent.idx"))).toThrow(MissingInputError);
  });

  it("an answer naming a feature the file does not have, naming the section", async () => {
    const answers = Uint32Array.from(artifact.answers);
    answers[0] = artifact.admin.featureChainStart.length + 5;
    const broken = await write("bad-answers.idx", { ...artifact, answers });
    expect(() => openAdminFile(broken)).toThrow(/field answers: expected feature ids in range/);
  });

  it("a slot entry pointing past the records: that lookup's DataFormatError naming the slot, the others answer", async () => {
    const slots = Uint32Array.from(artifact.slots);
    const vaduzSlot = index.grid.slotOf(47.14151, 9.52154);
    slots[2 * vaduzSlot] = 0x80000000 | (artifact.records.byteLength / 8);
    slots[2 * vaduzSlot + 1] = 64;
    const broken = await write("bad-slot.idx", { ...artifact, slots });
    const { index: damaged } = openAdminFile(broken);
    try {
      expect(() => damaged.lookup(47.14151, 9.52154)).toThrow(new RegExp(`field slots \\(slot ${vaduzSlot}\\): expected a record within ${artifact.records.byteLength} bytes`));
      expect(damaged.lookup(47.36667, 8.55).timezone).toBe("Etc/GMT-1");
    } finally {
      damaged.close();
    }
  });

  it("a record whose counts disagree with its length: DataFormatError, not a wrong answer", async () => {
    const records = Uint8Array.from(artifact.records);
    // The first record's admin candidate count (u32 at byte 48), made larger than the record.
    new DataView(records.buffer).setUint32(48, 1000, true);
    const broken = await write("bad-record.idx", { ...artifact, records });
    const { index: damaged } = openAdminFile(broken);
    try {
      // The first record's reference point (its slot's centre) lies in its slot.
      const ref = new Float64Array(artifact.records.buffer, artifact.records.byteOffset, 2);
      const slot = damaged.grid.slotOf(ref[1]!, ref[0]!);
      expect(artifact.slots[2 * slot]).toBe(0x80000000);
      expect(() => damaged.features(ref[1]!, ref[0]!)).toThrow(new RegExp(`field records \\(slot ${slot}\\): expected room for 1\\d+ candidates, got \\d+ bytes`));
    } finally {
      damaged.close();
    }
  });
});
