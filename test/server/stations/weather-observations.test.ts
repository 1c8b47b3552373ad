/**
 * Endpoints 3 and 4 through the real server on the embedded default. Expected records are read
 * off the raw reports by hand (FM 15 / FM 12 code forms, our documented units):
 * - KBED, aviationweather CSV, observed 2025-09-09 14:51 UTC:
 *   `METAR KBED 091451Z COR 11004KT 10SM SCT030 19/11 A3038 RMK AO2 SLP299 T01940106 58001`
 *   -> 10 SM = 16093 m, T group 19.4 degC, SCT = 3.5 octas = 43.75 %.
 * - 87582 (Aeroparque), ogimet file of 2026-03:
 *   `AAXX 10004 87582 32960 21215 10215 20157 ... 81036 333 ...` -> iR = 3 (0 mm), VV 60 = 10 km,
 *   N = 2 octas = 25 %, 21.5 degC, CL 0, CM 3, CH 6, no 7 group.
 * - 15280, Romanian bulletin 171800 corrected by CCB (60022 -> 60002):
 *   `15280 01/90 92012 11041 ... 60002 74143` -> VV 90 = under 50 m (0), N = 9 (100 %), -4.1 degC,
 *   ww 41, 0 mm.
 */
import { promises as fs } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ensureDefaultData } from "../../helpers/default-data.ts";
import { startTestServer, type TestServer } from "../../helpers/server.ts";

let server: TestServer;

beforeAll(async () => {
  const dataDir = await ensureDefaultData(["stations"]);
  server = await startTestServer({ dataDir });
}, 120_000);

afterAll(async () => {
  await server?.close();
});

interface Block {
  message: string | null;
  latest: Record<string, unknown> | null;
  history: Record<string, Record<string, unknown>> | null;
}

async function content(pathAndQuery: string): Promise<Record<string, Block>> {
  const res = await server.get(pathAndQuery);
  expect(res.status).toBe(200);
  const body = (await res.json()) as { status: string; code: number; content: Record<string, Block> };
  expect(body.status).toBe("OK");
  return body.content;
}

describe("GET /weather/METAR/2/json", () => {
  it("serves the corrected KBED report of 2025-09-09 14:51 UTC in history, and the newest as latest", async () => {
    const { METAR } = await content("/weather/METAR/2/json?id=KBED");
    const ts = Date.UTC(2025, 8, 9, 14, 51) / 1000;
    expect(METAR!.message).toBeNull();
    expect(METAR!.history![String(ts)]).toEqual({ timestamp: ts, visibility: 16093, temperature: 19.4, cloudCover: 43.75 });
    const keys = Object.keys(METAR!.history!).map(Number);
    expect(METAR!.latest).toEqual(METAR!.history![String(Math.max(...keys))]);
    for (const [k, rec] of Object.entries(METAR!.history!)) expect(rec.timestamp).toBe(Number(k));
    expect(METAR!.latest!.cloudTypes).toBeUndefined();
  });

  it("accepts a lower-case identifier", async () => {
    const { METAR } = await content("/weather/METAR/2/json?id=kbed");
    expect(METAR!.latest).not.toBeNull();
  });

  it("answers 200 with a message for a known station without a dated observation", async () => {
    const { METAR } = await content("/weather/METAR/2/json?id=EGLL");
    expect(METAR).toEqual({ message: "No METAR observation of station EGLL is available in the current data.", latest: null, history: null });
  });

  it("answers 404 for an unknown station and 400 naming id for a malformed one", async () => {
    const unknown = await server.get("/weather/METAR/2/json?id=ZZZZ");
    expect(unknown.status).toBe(404);
    expect(await unknown.json()).toEqual({ status: "error", code: 404, message: "No METAR station with ICAO identifier 'ZZZZ' is known." });
    for (const bad of ["K1", "KJFK1", "1234", "K%20FK"]) {
      const res = await server.get(`/weather/METAR/2/json?id=${bad}`);
      expect(res.status).toBe(400);
      expect(((await res.json()) as { message: string }).message).toMatch(/parameter 'id': expected a four-character ICAO station identifier/);
    }
    const missing = await server.get("/weather/METAR/2/json");
    expect(missing.status).toBe(400);
    expect(((await missing.json()) as { message: string }).message).toBe("Missing required parameter 'id'.");
  });
});

describe("GET /weather/SYNOP/2/json", () => {
  it("serves 87582 of 2026-03-10 00 UTC with cloud types and zero precipitation (iR = 3)", async () => {
    const { SYNOP } = await content("/weather/SYNOP/2/json?id=87582");
    const ts = Date.UTC(2026, 2, 10, 0) / 1000;
    expect(SYNOP!.history![String(ts)]).toEqual({
      timestamp: ts, visibility: 10000, temperature: 21.5, cloudCover: 25,
      cloudTypes: { cloudHigh: 6, cloudMiddle: 3, cloudLow: 0 }, precipitation: 0, precipitationConvective: 0,
    });
    const keys = Object.keys(SYNOP!.history!).map(Number);
    expect(SYNOP!.latest!.timestamp).toBe(Math.max(...keys));
  });

  it("serves malformed Argentine reports by the FM 12 section rules (test/fixtures/stations/ogimet-argentina-2026-03-out-of-place.txt)", async () => {
    // 87803 12044 `42780 22208 10127 ... 81208`: 22208 is Nddff (N 2 = 25 %), not section 2; iR 4.
    const at = (d: number, h: number): string => String(Date.UTC(2026, 2, d, h) / 1000);
    expect((await content("/weather/SYNOP/2/json?id=87803")).SYNOP!.history![at(12, 4)]).toEqual({ timestamp: Number(at(12, 4)), visibility: 30000, temperature: 12.7, cloudCover: 25, cloudTypes: { cloudHigh: 8, cloudMiddle: 0, cloudLow: 2 } });
    // 87761 11184 `10237 10038`: the group in place (23.7 degC), not the repeat; iR 3: 0 mm.
    expect((await content("/weather/SYNOP/2/json?id=87761")).SYNOP!.history![at(11, 18)]).toMatchObject({ temperature: 23.7, precipitation: 0 });
    // 87050 11124, iR 2: section 3's 60382 (38 mm), not section 1's 60474.
    expect((await content("/weather/SYNOP/2/json?id=87050")).SYNOP!.history![at(11, 12)]).toMatchObject({ precipitation: 38 });
  });

  it("serves the CCB correction of 15280, not the original", async () => {
    const { SYNOP } = await content("/weather/SYNOP/2/json?id=15280");
    const ts = Date.UTC(2023, 0, 17, 18) / 1000;
    expect(SYNOP!.history![String(ts)]).toEqual({ timestamp: ts, wid: "41", visibility: 0, temperature: -4.1, cloudCover: 100, precipitation: 0, precipitationConvective: 0 });
  });

  it("answers 200 with a message for a station whose only bulletin has no known month (Cuba)", async () => {
    const { SYNOP } = await content("/weather/SYNOP/2/json?id=78310");
    expect(SYNOP).toEqual({ message: "No SYNOP observation of station 78310 is available in the current data.", latest: null, history: null });
  });

  it("answers 404 for an unknown index and 400 for a malformed one", async () => {
    const unknown = await server.get("/weather/SYNOP/2/json?id=00000");
    expect(unknown.status).toBe(404);
    expect(((await unknown.json()) as { message: string }).message).toBe("No SYNOP station with WMO index '00000' is known.");
    for (const bad of ["8758", "875820", "8758a", "KBED"]) {
      const res = await server.get(`/weather/SYNOP/2/json?id=${bad}`);
      expect(res.status).toBe(400);
      expect(((await res.json()) as { message: string }).message).toBe(`Invalid value "${bad}" for parameter 'id': expected a five-digit WMO station index, e.g. 87582.`);
    }
  });
});

describe("without the stations artifact", () => {
  it("answers 503 on both endpoints", async () => {
    const empty = await fs.mkdtemp(path.join(os.tmpdir(), "stations-empty-"));
    const bare = await startTestServer({ dataDir: empty });
    try {
      for (const p of ["/weather/METAR/2/json?id=KBED", "/weather/SYNOP/2/json?id=87582"]) {
        const res = await bare.get(p);
        expect(res.status).toBe(503);
      }
    } finally {
      await bare.close();
      await fs.rm(empty, { recursive: true, force: true });
    }
  });
});
