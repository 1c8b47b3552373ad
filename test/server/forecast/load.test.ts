/**
 * The forecast loader through the real server: the embedded default opens at startup and /health
 * reports it with its models; a corrupted run file makes the forecast dataset invalid, and /health
 * says so with the file and the failed check (what only the corrupt run causes: the intact copy is
 * ready with no message).
 */
import { cp, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { defaultDatasetDir } from "../../helpers/default-data.ts";
import { startTestServer } from "../../helpers/server.ts";

interface Health {
  content: { datasets: Array<{ name: string; status: string; message?: string; counts?: Record<string, number>; facts?: { models?: Array<{ model: string; runs: string[]; variables: string[]; licence: { provider: string; licence: string; attribution: string } | null }> } }> };
}

let copy = "";
beforeAll(async () => {
  const dataDir = await defaultDatasetDir("forecast");
  copy = await mkdtemp(path.join(tmpdir(), "fc-server-"));
  await cp(path.join(dataDir, "forecast"), path.join(copy, "forecast"), { recursive: true });
}, 120_000);
afterAll(async () => {
  if (copy) await rm(copy, { recursive: true, force: true });
});

async function forecastState(dataDir: string): Promise<{ state: Health["content"]["datasets"][number] }> {
  const server = await startTestServer({ dataDir });
  try {
    const health = (await (await server.get("/health", { key: null })).json()) as Health;
    return { state: health.content.datasets.find((d) => d.name === "forecast")! };
  } finally {
    await server.close();
  }
}

describe("forecast loader", () => {
  it("opens the embedded default: every sample model with its runs and variables", async () => {
    const { state } = await forecastState(copy);
    expect(state.status).toBe("ready");
    expect(state.message).toBeUndefined();
    expect(state.counts).toMatchObject({ runs: 7, models: 6 });
    const models = state.facts!.models!;
    expect(models.map((m) => m.model)).toEqual(["gfs-1p0-precip", "gfs-2p5-sample", "gfs-alaska-0p5", "gfs-alaska-2p5", "gfs-iberia-grib1", "gfs-mediterranean-grib1"]);
    expect(models.find((m) => m.model === "gfs-2p5-sample")!.runs).toEqual(["2011-10-08T00:00:00.000Z", "2011-01-10T12:00:00.000Z"]);
    expect(models.find((m) => m.model === "gfs-alaska-0p5")!.variables).toEqual(["temperature_2m", "relative_humidity_2m", "cloud_cover_convective"]);
    // Each model's licence as users must see it (datasets/forecast/licences.ts): GFS is NOAA's, public domain.
    for (const m of models) expect(m.licence, m.model).toMatchObject({ licence: "public domain (US Government work)" });
  });

  it("refuses a corrupted run file: /health shows forecast invalid, naming the file and the CRC", async () => {
    const file = path.join(copy, "forecast", "gfs-alaska-0p5", "2011090206.fcst");
    const bytes = await readFile(file);
    bytes[bytes.length - 100] = bytes[bytes.length - 100]! ^ 0x55;
    await writeFile(file, bytes);
    const { state } = await forecastState(copy);
    expect(state.status).toBe("invalid");
    expect(state.message).toMatch(/2011090206\.fcst.*CRC/);
    expect(state.counts).toBeUndefined();
  });
});
