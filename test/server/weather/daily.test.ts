/**
 * The daily section's byte writer against its object form: for points of every run of the
 * embedded default (one step, 13 steps over two local dates, 65 steps, runs with only a few
 * variables, so members that are null), writeDailySection gives exactly JSON.stringify of
 * dailySection. That the object form follows the published aggregations of the hourly slots is
 * checked through the HTTP API in weather-id-http.test.ts.
 */
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { cellLat, cellLon } from "../../../datasets/forecast/grid.ts";
import { openForecastStore, type ForecastStore } from "../../../datasets/forecast/store.ts";
import { dailySection, writeDailySection } from "../../../server/weather/daily.ts";
import { JsonBytes } from "../../../server/weather/json-bytes.ts";
import { pointForecast } from "../../../server/weather/point-series.ts";
import { buildSlotTable, type SlotTable } from "../../../server/weather/slot-table.ts";
import { timeSlots } from "../../../server/weather/time-slots.ts";
import { ensureDefaultData } from "../../helpers/default-data.ts";

let store: ForecastStore;
beforeAll(async () => {
  store = await openForecastStore(path.join(await ensureDefaultData(["forecast"]), "forecast"));
}, 600_000);

/** Tables at points spread over each run's grid (between nodes, so four nodes count), in two zones. */
function tables(): { label: string; table: SlotTable }[] {
  const out: { label: string; table: SlotTable }[] = [];
  for (const run of store.runs) {
    const { grid } = run.meta;
    for (const [fi, fj] of [[0.3, 0.4], [0.5, 0.5], [0.8, 0.2]] as const) {
      const i = Math.min(grid.nLon - 2, Math.floor(fi * grid.nLon));
      const j = Math.min(grid.nLat - 2, Math.floor(fj * grid.nLat));
      const lat = cellLat(grid, j) + 0.37 * grid.dLat;
      const lon = cellLon(grid, i) + 0.61 * grid.dLon;
      const forecast = pointForecast(run, lat, lon);
      if (!forecast) continue;
      for (const zone of ["Europe/Berlin", "America/Anchorage"]) {
        const slots = timeSlots(run.meta.runTime, run.meta.steps, zone, Date.parse(run.meta.runTime));
        out.push({ label: `${run.meta.model}@${run.meta.runTime} ${lat.toFixed(2)},${lon.toFixed(2)} ${zone}`, table: buildSlotTable(forecast, slots, { heightCorrectionK: 0 }) });
      }
    }
  }
  return out;
}

describe("writeDailySection", () => {
  it("writes JSON.stringify(dailySection(t)) byte for byte, for every run of the embedded default", () => {
    const all = tables();
    expect(new Set(all.map((t) => t.label.split(" ")[0])).size).toBe(store.runs.length);
    let multiDay = 0;
    let withNull = 0;
    for (const { label, table } of all) {
      const w = new JsonBytes(64);
      writeDailySection(w, table);
      const expected = JSON.stringify(dailySection(table));
      expect(Buffer.from(w.bytes()).toString("utf8"), label).toBe(expected);
      if (dailySection(table).length > 1) multiDay++;
      if (expected.includes("null")) withNull++;
    }
    // The cases that matter are there: several local dates, and members without a value.
    expect(multiDay).toBeGreaterThan(0);
    expect(withNull).toBeGreaterThan(0);
  });

  it("writes [] for a table without slots", () => {
    const run = store.runs[0]!;
    const forecast = pointForecast(run, cellLat(run.meta.grid, 0), cellLon(run.meta.grid, 0))!;
    const table = buildSlotTable(forecast, [], { heightCorrectionK: 0 });
    const w = new JsonBytes(8);
    writeDailySection(w, table);
    expect(Buffer.from(w.bytes()).toString("utf8")).toBe("[]");
    expect(JSON.stringify(dailySection(table))).toBe("[]");
  });
});
