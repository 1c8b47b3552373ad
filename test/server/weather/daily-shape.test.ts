/**
 * The daily section's writer (daily-shape.ts, over daily.ts's aggregates) against the section
 * built as objects here, from the published definitions (the mean, sum, largest or smallest of
 * the day's non-null slot values, rounded as on the wire; the probability 1 − Π(1 − p/100)) and
 * stringified: for points of every run of the embedded default (one step, 13 steps over two local
 * dates, 65 steps, runs with only a few variables, so members that are null), writeDailySection
 * gives exactly that JSON. The aggregations are also checked against the hourly section through
 * the HTTP API in weather-id-http.test.ts. The expected values use none of the server's helpers:
 * the rounding, the grouping by local date and the probability are written here, the colours come
 * from the scale computed by hand in test/helpers/reference-temperature-color.ts.
 */
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { cellLat, cellLon } from "../../../datasets/forecast/grid.ts";
import { openForecastStore, type ForecastStore } from "../../../datasets/forecast/store.ts";
import { writeDailySection } from "../../../server/weather/daily-shape.ts";
import { JsonText } from "../../../server/weather/json-text.ts";
import { pointForecast } from "../../../server/weather/point-series.ts";
import { buildSlotTable, type NumericMember, type SlotTable } from "../../../server/weather/slot-table.ts";
import { timeSlots } from "../../../server/weather/time-slots.ts";
import { defaultDatasetDir } from "../../helpers/default-data.ts";
import { referenceTemperatureColor } from "../../helpers/reference-temperature-color.ts";

let store: ForecastStore;
beforeAll(async () => {
  store = await openForecastStore(path.join(await defaultDatasetDir("forecast"), "forecast"));
}, 600_000);

/**
 * A value rounded as on the wire (half away from zero), by the decimal rounding of toFixed. The
 * values rounded here have no half-way cases that binary arithmetic could tip: sums, minima and
 * maxima of slot values that already have that many decimals, means of whole percents (a half is
 * exact in binary), and the exact day probability below.
 */
const wireRound = (x: number, decimals: number): number | null => (Number.isNaN(x) ? null : Number(x.toFixed(decimals)));

/**
 * The day's chance of precipitation, whole percent, exactly: the slots' probabilities p are whole
 * percents, so with D = Π(100 − p) over n slots the value 100 × (1 − Π(1 − p/100)) is
 * N / 100^(n−1) with N = 100^n − D, an exact fraction rounded half up in integers.
 */
function dayChance(percents: number[]): number | null {
  if (percents.length === 0) return null;
  let dry = 1n;
  for (const p of percents) {
    if (!Number.isInteger(p) || p < 0 || p > 100) throw new Error(`expected a whole percent, got ${p}`);
    dry *= BigInt(100 - p);
  }
  const scale = 100n ** BigInt(percents.length - 1);
  const n = 100n * scale - dry;
  return Number((2n * n + scale) / (2n * scale));
}

/** The daily section as objects, from the published definitions (the module comment). */
function dailySection(t: SlotTable): Record<string, unknown>[] {
  const day = (from: number, to: number): unknown => {
    const values = (m: NumericMember): number[] => t.columns[m].slice(from, to).filter((x) => !Number.isNaN(x));
    const agg = (m: NumericMember, how: "mean" | "sum" | "max" | "min"): number => {
      const xs = values(m);
      if (xs.length === 0) return NaN;
      const sum = xs.reduce((a, b) => a + b, 0);
      return how === "mean" ? sum / xs.length : how === "sum" ? sum : how === "max" ? Math.max(...xs) : Math.min(...xs);
    };
    const measure = (m: NumericMember, how: "mean" | "sum" | "max" | "min", decimals: number, unit: string) => ({ value: wireRound(agg(m, how), decimals), unit });
    const colored = (x: number) => {
      const v = wireRound(x, 1);
      return { value: v, unit: "°C", color: v === null ? null : referenceTemperatureColor(v) };
    };
    return {
      clouds: {
        total: measure("cloudTotal", "mean", 0, "%"),
        high: measure("cloudHigh", "mean", 0, "%"),
        middle: measure("cloudMiddle", "mean", 0, "%"),
        low: measure("cloudLow", "mean", 0, "%"),
        convective: measure("cloudConvective", "mean", 0, "%"),
        boundary: measure("cloudBoundary", "mean", 0, "%"),
      },
      precipitation: {
        total: measure("precipitation", "sum", 2, "mm"),
        convective: measure("precipitationConvective", "sum", 2, "mm"),
        probability: { value: dayChance(values("probability")), unit: "%" },
      },
      temperature: { min: colored(agg("min", "min")), max: colored(agg("max", "max")) },
      wind: { speed: measure("speed", "max", 1, "m/s"), gust: measure("gust", "max", 1, "m/s") },
      liftedIndex: measure("liftedIndex", "min", 1, "K"),
    };
  };
  // The local dates of the slots, in order, each with its run of slots.
  const days: { date: string; from: number; to: number }[] = [];
  t.slots.forEach((slot, i) => {
    const last = days.at(-1);
    if (last?.date === slot.date) last.to = i + 1;
    else days.push({ date: slot.date, from: i, to: i + 1 });
  });
  return days.map((d) => ({ [d.date]: day(d.from, d.to) }));
}

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
      const w = new JsonText();
      writeDailySection(w, table);
      const expected = JSON.stringify(dailySection(table));
      expect(w.json(), label).toBe(expected);
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
    const w = new JsonText();
    writeDailySection(w, table);
    expect(w.json()).toBe("[]");
    expect(JSON.stringify(dailySection(table))).toBe("[]");
  });
});
