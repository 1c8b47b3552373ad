/**
 * Every member of the weather time slot, defined once: unit, source variable(s), the window it
 * covers and the formula. The README table and the OpenAPI description of the weather endpoints
 * are generated from this list (`npm run docs`; a test checks the README copy).
 */
import { LAPSE_RATE_K_PER_M } from "./slot-table.ts";
import { PROBABILITY_THRESHOLD_MM } from "./point-series.ts";

export interface MemberDefinition {
  /** Path in the slot, e.g. `temperature.surface`. */
  member: string;
  unit: string;
  /** Vocabulary variables read (datasets/forecast/variables.ts) and the GFS field they come from. */
  source: string;
  window: string;
  formula: string;
}

const INSTANT = "instant: the step's valid time";
const WINDOW = "the window ending at the slot: (previous step, this step]";
const lapse = `${LAPSE_RATE_K_PER_M * 1000} K/km`;

export const SLOT_MEMBERS: readonly MemberDefinition[] = [
  { member: "clouds.total", unit: "%", source: "cloud_cover (GFS TCDC entire atmosphere)", window: "instant, or the window's mean where the model gives only averages", formula: "bilinear, whole percent; `localData`: observed cover (METAR/SYNOP, octas x 12.5) of a station within 25 km and 300 m of height reporting within 30 min of the slot" },
  { member: "clouds.high / middle / low", unit: "%", source: "cloud_cover_high / _mid / _low (HCDC/MCDC/LCDC, else TCDC on the layer)", window: "instant, or the window's mean", formula: "bilinear, whole percent" },
  { member: "clouds.convective", unit: "%", source: "cloud_cover_convective (TCDC convective cloud layer)", window: INSTANT, formula: "bilinear, whole percent" },
  { member: "clouds.boundary", unit: "%", source: "cloud_cover_boundary_layer (TCDC boundary layer cloud layer)", window: "instant, or the window's mean", formula: "bilinear, whole percent" },
  { member: "reltiveHumidity", unit: "%", source: "relative_humidity_2m (RH 2 m)", window: INSTANT, formula: "bilinear, whole percent" },
  { member: "liftedIndex", unit: "K", source: "lifted_index (LFTX surface)", window: INSTANT, formula: "bilinear, one decimal" },
  { member: "isotherm", unit: "m", source: "freezing_level_height (HGT 0C isotherm, gpm taken as m)", window: INSTANT, formula: "bilinear, whole metres above mean sea level; `temperature` is \"0 °C\", the isotherm it gives" },
  { member: "HPBL", unit: "m", source: "boundary_layer_height (HPBL surface)", window: INSTANT, formula: "bilinear, whole metres above ground" },
  { member: "precipitation.total", unit: "mm", source: "precipitation (APCP; buckets and running totals turned into per-step amounts at ingest)", window: WINDOW, formula: "bilinear amount over the window, two decimals; null at a run's first step (empty window)" },
  { member: "precipitation.convective", unit: "mm", source: "precipitation_convective (ACPCP)", window: WINDOW, formula: "as total" },
  { member: "precipitation.probability", unit: "%", source: "precipitation at the 3x3 grid nodes around the nearest node", window: WINDOW, formula: `deterministic models: share of those nodes (inside the grid) whose window amount is >= ${PROBABILITY_THRESHOLD_MM} mm, whole percent (neighbourhood probability); header X-Forecast-Probability says so` },
  { member: "temperature.surface", unit: "°C", source: "temperature_2m (TMP 2 m), surface_height (HGT surface)", window: INSTANT, formula: `bilinear T - 273.15, plus the lapse-rate correction -${lapse} x (point height from our DEM - model surface height); one decimal; \`localStation\`: the station of clouds.total.localData` },
  { member: "temperature.min / max", unit: "°C", source: "temperature_2m_min / _max (TMIN/TMAX 2 m)", window: WINDOW, formula: "bilinear extreme over the window with the same height correction; a model without TMIN/TMAX: the smaller / larger 2 m temperature at the window's two ends (previous step, this step)" },
  { member: "temperature.felt", unit: "°C", source: "surface temperature, wind speed, relative humidity", window: INSTANT, formula: "NWS wind chill when T <= 10 °C and wind > 4.8 km/h; NWS heat index (Rothfusz with the NWS adjustments, the simple formula below 80 °F) when T >= 26.7 °C; else T" },
  { member: "temperature.*.color", unit: "#rrggbb", source: "the member's value", window: "as the member", formula: "background from the published scale (-40 °C to +50 °C, clamped); text #000000 or #ffffff, whichever has the higher WCAG 2.1 contrast (always >= 4.5); null when the value is null" },
  { member: "temperature.isInversion", unit: "0/1", source: "temperature_2m, temperature_925hPa, temperature_850hPa, pressure_msl, surface_height", window: INSTANT, formula: "1 when the lowest stored pressure level above the model surface (925 hPa, else 850 hPa; surface pressure from MSL pressure and model height by the standard atmosphere) is warmer than the model's 2 m air" },
  { member: "wind.speed", unit: "m/s", source: "wind_u_10m, wind_v_10m (UGRD/VGRD 10 m)", window: INSTANT, formula: "u and v interpolated bilinearly, then sqrt(u² + v²); one decimal" },
  { member: "wind.gust", unit: "m/s", source: "wind_gust (GUST surface)", window: INSTANT, formula: "bilinear, one decimal" },
  { member: "wind.direction", unit: "°", source: "wind_u_10m, wind_v_10m", window: INSTANT, formula: "meteorological (where the wind blows from, 0 = north, clockwise), from the interpolated u and v; whole degrees, 0-359; calm is 0; `icon` the nearest multiple of 45, 360 written 0" },
  { member: "pressure", unit: "hPa", source: "pressure_msl (PRMSL)", window: INSTANT, formula: "bilinear, one decimal; `level` is \"MSL\"" },
  { member: "heatIndex", unit: "-", source: "NWS heat index of the slot", window: INSTANT, formula: "when T >= 26.7 °C: 27-32 °C \"1/4\", 32-41 \"2/4\", 41-54 \"3/4\", >= 54 \"4/4\" (lower bounds inclusive); else \"\"" },
];

/** The members as a Markdown table. */
export function membersMarkdown(members: readonly MemberDefinition[] = SLOT_MEMBERS): string {
  const esc = (s: string): string => s.replaceAll("|", "\\|");
  return [
    "| Member | Unit | Source | Window | Formula |",
    "|---|---|---|---|---|",
    ...members.map((m) => `| \`${m.member}\` | ${esc(m.unit)} | ${esc(m.source)} | ${esc(m.window)} | ${esc(m.formula)} |`),
  ].join("\n");
}
