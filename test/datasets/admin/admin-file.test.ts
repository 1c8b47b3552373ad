/**
 * The admin artifact: built from real polygons (Liechtenstein's Natural Earth municipalities and
 * the Europe/Vaduz zone), written, reopened, and every lookup equal to brute-force
 * point-in-polygon (and, outside every polygon, the nearest within the coast tolerance); damaged
 * files refused with the field or offset named.
 */
import { promises as fs, readFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it, beforeAll } from "vitest";
import { COAST_TOLERANCE_KM, NO_FEATURE, AdminIndex } from "../../../datasets/admin/admin-index.ts";
import { ADMIN_SPEC, encodeAdminPayload, openAdminIndex } from "../../../datasets/admin/admin-file.ts";
import { featuresContaining, nearestFeatureWithin } from "../../../datasets/admin/polygon-layer.ts";
import { writeArtifact } from "../../../datasets/artifact/write-artifact.ts";
import { DataFormatError } from "../../../datasets/common/errors.ts";
import { createLogger } from "../../../datasets/common/log.ts";
import { buildIndex } from "../../../pipeline/admin/build-index.ts";
import { parseFeatureCollection } from "../../../pipeline/admin/geojson.ts";
import { LayerBuilder } from "../../../pipeline/admin/layer-builder.ts";
import { mulberry32 } from "../../../datasets/common/prng.ts";

const FIXTURES = path.join(import.meta.dirname, "..", "..", "fixtures", "admin");

let bytes: Buffer;
let file: string;

beforeAll(async () => {
  const ne = parseFeatureCollection(readFileSync(path.join(FIXTURES, "ne-admin1-liechtenstein.geojson"), "utf8"), "ne-admin1-liechtenstein.geojson");
  const admin = new LayerBuilder();
  for (const f of ne) admin.add(f.rings);
  const vaduz = JSON.parse(readFileSync(path.join(FIXTURES, "geotz-europe-vaduz-chains.json"), "utf8")) as { tzid: string; chains: number[][] };
  const tz = new LayerBuilder();
  tz.add(vaduz.chains.map((c) => Float64Array.from(c)));
  const built = buildIndex(admin.finish(), tz.finish(), 4, createLogger({ minLevel: "error" }));
  const attributes = { iso2: ne.map(() => "LI"), admin1: ne.map((f) => String(f.properties.gn_a1_code)), name: ne.map((f) => String(f.properties.name)), tzid: [vaduz.tzid], tzCountry: [""], refineCodes: [] };
  const refinement = { featureStart: new Uint32Array(ne.length + 1), lat: new Float64Array(0), lon: new Float64Array(0), code: new Uint32Array(0) };
  const { chunks, extra } = encodeAdminPayload({ ...built.data, refinement, attributes });
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), "admin-idx-"));
  file = path.join(dir, "admin.idx");
  await writeArtifact(file, { magic: ADMIN_SPEC.magic, formatVersion: ADMIN_SPEC.formatVersion, kind: "admin", sources: [], counts: {}, extra }, chunks);
  bytes = await fs.readFile(file);
}, 300_000);

describe("admin.idx round trip", () => {
  it("answers like brute force around Liechtenstein, inside and outside", () => {
    const { index } = openAdminIndex(bytes, file);
    const rnd = mulberry32(7);
    let boundaryHits = 0;
    for (let k = 0; k < 20_000; k++) {
      const lat = 46.95 + rnd() * 0.35;
      const lon = 9.35 + rnd() * 0.4;
      index.lookupIds(lat, lon);
      const a = featuresContaining(index.data.admin, lon, lat)[0] ?? nearestFeatureWithin(index.data.admin, lon, lat, COAST_TOLERANCE_KM) ?? NO_FEATURE;
      const t = featuresContaining(index.data.tz, lon, lat)[0] ?? NO_FEATURE;
      expect([index.ids[0], index.ids[1]]).toEqual([a, t]);
      const s = index.grid.slotOf(lat, lon);
      if (index.data.slotWord[s]! >= 0x80000000) boundaryHits++;
    }
    // The sample must exercise the boundary records, not only single-answer cells.
    expect(boundaryHits).toBeGreaterThan(1000);
  });

  it("puts Vaduz (GeoNames 47.14151, 9.52154) in Liechtenstein and Europe/Vaduz, Zurich in neither", () => {
    const { index } = openAdminIndex(bytes, file);
    const vaduz = index.lookup(47.14151, 9.52154);
    expect(vaduz.iso2).toBe("LI");
    expect(vaduz.timezone).toBe("Europe/Vaduz");
    const zurich = index.lookup(47.36667, 8.55);
    expect(zurich.iso2).toBeUndefined();
    // Outside every polygon of this small index: the ocean rule of its longitude.
    expect(zurich.timezone).toBe("Etc/GMT-1");
  });

  it("refuses a flipped payload byte (checksum)", () => {
    const bad = Buffer.from(bytes);
    bad[bad.length - 100]! ^= 0xff;
    expect(() => openAdminIndex(bad, file)).toThrow(/CRC-32/);
  });

  it("refuses a truncated file and a wrong magic", () => {
    expect(() => openAdminIndex(bytes.subarray(0, bytes.length - 8), file)).toThrow(DataFormatError);
    const other = Buffer.from(bytes);
    other.write("GEODPLCS", 0, "latin1");
    expect(() => openAdminIndex(other, file)).toThrow(/magic GEODADMN/);
  });

  it("refuses a slot word pointing past the answers, naming the section", async () => {
    const { index } = openAdminIndex(bytes, file);
    const d = index.data;
    const slotWord = Uint32Array.from(d.slotWord);
    const s = slotWord.findIndex((w) => w < 0x80000000);
    slotWord[s] = d.answers.length;
    const { chunks, extra } = encodeAdminPayload({ ...d, slotWord });
    const broken = path.join(path.dirname(file), "broken.idx");
    await writeArtifact(broken, { magic: ADMIN_SPEC.magic, formatVersion: ADMIN_SPEC.formatVersion, kind: "admin", sources: [], counts: {}, extra }, chunks);
    expect(() => openAdminIndex(readFileSync(broken), broken)).toThrow(/field slotWord/);
  });

  it("keeps zero-copy views into the file buffer", () => {
    const { index } = openAdminIndex(bytes, file);
    expect(index).toBeInstanceOf(AdminIndex);
    expect(index.data.admin.xs.buffer).toBe(bytes.buffer);
  });
});
