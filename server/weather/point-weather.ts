/**
 * The whole point answer: the run that answers (model-choice.ts), the point's series from it,
 * the slots in the point's timezone, and every slot's members (slot-table.ts). Shared by
 * /weather/point and /weather/id, so both give the same slots byte for byte.
 */
import type { AdminIndex } from "../../datasets/admin/admin-index.ts";
import { oceanZone } from "../../datasets/admin/ocean-zones.ts";
import type { ForecastStore } from "../../datasets/forecast/store.ts";
import type { ForecastRun } from "../../datasets/forecast/run-reader.ts";
import type { ElevationAnswer, ElevationStore } from "../elevation/elevation-store.ts";
import { localObservations } from "../stations/station-locations.ts";
import type { StationStore } from "../stations/station-store.ts";
import { chooseRun } from "./model-choice.ts";
import { PROBABILITY_HALF_WIDTH, PROBABILITY_THRESHOLD_MM, seriesAtCells, type PointForecast } from "./point-series.ts";
import { LAPSE_RATE_K_PER_M } from "./slot-physics.ts";
import { buildSlotTable, type SlotContext, type SlotTable } from "./slot-table.ts";
import { timeSlots } from "./time-slots.ts";

export const FORECAST_MODEL_HEADER = "X-Forecast-Model";
export const FORECAST_RESOLUTION_HEADER = "X-Forecast-Resolution";
export const FORECAST_RUN_HEADER = "X-Forecast-Run";
export const FORECAST_TIMEZONE_HEADER = "X-Forecast-Timezone";
export const FORECAST_HEIGHT_HEADER = "X-Forecast-Height-Correction";
export const FORECAST_PROBABILITY_HEADER = "X-Forecast-Probability";
/** Seconds from the run's reference time to the answer (a cached answer states its own instant's). */
export const FORECAST_RUN_AGE_HEADER = "X-Forecast-Run-Age";

export interface WeatherInputs {
  forecast: ForecastStore;
  /** Gives the point's timezone; without it, the nautical zone of the longitude. */
  admin?: AdminIndex | undefined;
  /** Gives the point's height for the temperature correction; without it, no correction. */
  elevation?: ElevationStore | undefined;
  /** Gives the station observations near the point (localData); none without it. */
  stations?: StationStore | undefined;
}

export interface PointWeather {
  run: ForecastRun;
  forecast: PointForecast;
  zone: string;
  /** Every slot's members, in time order. */
  table: SlotTable;
  headers: Record<string, string>;
}

/** Degrees as a header token: 0.25 → "0.25deg"; "0.5x0.25deg" when the axes differ (lat x lon). */
export function resolutionToken(run: ForecastRun): string {
  const { dLat, dLon } = run.meta.grid;
  return dLat === dLon ? `${dLat}deg` : `${dLat}x${dLon}deg`;
}

/** ISO 8601 UTC without milliseconds: 2026-11-23T06:00:00Z. */
export function runTimeToken(run: ForecastRun): string {
  return new Date(run.meta.runTime).toISOString().replace(".000Z", "Z");
}

/**
 * The DEM's answer at the point, looked up once per request: the height correction and
 * /weather/id's elevation section both use it. Undefined without the elevation dataset or where
 * no DEM has data.
 */
export function elevationAt(inputs: WeatherInputs, lat: number, lon: number): ElevationAnswer | undefined {
  return inputs.elevation?.lookup(lat, lon);
}

/**
 * The answer for (lat, lon) at `now`, or undefined when no loaded run covers the point.
 * `elevation` is elevationAt's answer for the same point.
 */
export function pointWeather(lat: number, lon: number, inputs: WeatherInputs, now: Date, elevation: ElevationAnswer | undefined): PointWeather | undefined {
  const chosen = chooseRun(inputs.forecast, lat, lon);
  if (!chosen) return undefined;
  const { run, cells } = chosen;
  const forecast = seriesAtCells(run, cells);
  const zone = inputs.admin ? inputs.admin.timezoneAt(lat, lon) : oceanZone(lon);
  const slots = timeSlots(run.meta.runTime, run.meta.steps, zone, now.getTime());
  // The height for the correction, m: the global DEM's bathymetry (negative at sea) counts as the sea surface, 0.
  const height = elevation && (elevation.source.startsWith("etopo") && elevation.metres < 0 ? 0 : elevation.metres);

  let heightCorrectionK = 0;
  let heightNote: string;
  if (forecast.modelHeight !== forecast.modelHeight) heightNote = "none; reason=model-has-no-surface-height";
  else if (!inputs.elevation) heightNote = "none; reason=elevation-dataset-not-loaded";
  else if (height === undefined) heightNote = "none; reason=no-dem-data-at-point";
  else {
    heightCorrectionK = -LAPSE_RATE_K_PER_M * (height - forecast.modelHeight);
    heightNote = `lapse-rate; model-surface=${Math.round(forecast.modelHeight)}m; point=${Math.round(height)}m; dem=${elevation!.source}`;
  }
  const context: SlotContext = { heightCorrectionK };
  const local = localObservations(inputs.stations?.locator, lat, lon, height);
  if (local) context.local = local;
  const table = buildSlotTable(forecast, slots, context);
  const tokens = runTokens(run);
  return {
    run,
    forecast,
    zone,
    table,
    headers: {
      [FORECAST_MODEL_HEADER]: run.meta.model,
      [FORECAST_RESOLUTION_HEADER]: tokens.resolution,
      [FORECAST_RUN_HEADER]: tokens.runTime,
      [FORECAST_TIMEZONE_HEADER]: zone,
      [FORECAST_HEIGHT_HEADER]: heightNote,
      [FORECAST_PROBABILITY_HEADER]: tokens.probability,
    },
  };
}

/**
 * X-Forecast-Run-Age: whole seconds from the answer's X-Forecast-Run to `now` (0 before it). Set
 * by the freshness layer on every answer (Endpoint.instantHeaders), a kept one too: the response
 * cache keeps an answer for up to a quarter of an hour.
 */
export function setRunAge(headers: Record<string, string>, now: Date): void {
  const run = headers[FORECAST_RUN_HEADER];
  if (run !== undefined) headers[FORECAST_RUN_AGE_HEADER] = String(Math.max(0, Math.floor((now.getTime() - Date.parse(run)) / 1000)));
}

/** The headers' values that depend only on the run: formatted once per run. */
const tokensOfRun = new WeakMap<ForecastRun, { resolution: string; runTime: string; probability: string }>();

function runTokens(run: ForecastRun): { resolution: string; runTime: string; probability: string } {
  let tokens = tokensOfRun.get(run);
  if (tokens === undefined) {
    const side = 2 * PROBABILITY_HALF_WIDTH + 1;
    tokens = {
      resolution: resolutionToken(run),
      runTime: runTimeToken(run),
      probability: run.hasVariable("precipitation") ? `neighbourhood; nodes=${side}x${side}; threshold=${PROBABILITY_THRESHOLD_MM}mm` : "none; reason=model-has-no-precipitation",
    };
    tokensOfRun.set(run, tokens);
  }
  return tokens;
}
