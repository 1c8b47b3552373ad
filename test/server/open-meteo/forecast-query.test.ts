/**
 * The /v1/forecast query and its vocabulary, without a server: Open-Meteo's list syntax, limits and
 * messages (Sources/App/Helper/ForecastapiQuery.swift), the names it knows (null when our store
 * lacks them, a 400 when Open-Meteo does not know them), the SDK codes of each variable (its
 * FlatBuffers+WeatherApi.swift mapping), and the JSON number format (NumberExtensions.swift).
 */
import { Aggregation } from "@openmeteo/sdk/aggregation.js";
import { Unit } from "@openmeteo/sdk/unit.js";
import { Variable } from "@openmeteo/sdk/variable.js";
import { describe, expect, it } from "vitest";
import { Query } from "../../../server/api/query.ts";
import { dailyVariable } from "../../../server/open-meteo/daily-variables.ts";
import { FORECAST_PARAMS, parseForecastQuery } from "../../../server/open-meteo/forecast-query.ts";
import { hourlyVariable } from "../../../server/open-meteo/hourly-variables.ts";
import { conversionOf, DEFAULT_UNITS, formatValue } from "../../../server/open-meteo/units.ts";
import { badRequestMessage } from "../../helpers/bad-request.ts";

const parse = (query: string) => parseForecastQuery(new Query(new URLSearchParams(query), FORECAST_PARAMS));

describe("the query", () => {
  it("reads Open-Meteo's comma-separated lists, empty items skipped, and its defaults", () => {
    const q = parse("latitude=52.52,48.85&longitude=13.41,2.35&hourly=temperature_2m,,wind_speed_10m,");
    expect(q.points).toEqual([
      { lat: 52.52, lon: 13.41 },
      { lat: 48.85, lon: 2.35 },
    ]);
    expect(q.hourly!.map((v) => v.name)).toEqual(["temperature_2m", "wind_speed_10m"]);
    expect(q).toMatchObject({ model: "best_match", timezones: ["GMT", "GMT"], forecastDays: 7, pastDays: 0, units: DEFAULT_UNITS, timeformat: "iso8601", format: "json" });
    expect(q.daily).toBeUndefined();
    expect(parse("latitude=1,2&longitude=3,4&timezone=auto").timezones).toEqual(["auto", "auto"]);
    expect(parse("latitude=1,2&longitude=3,4&timezone=Europe/Berlin,America/New_York").timezones).toEqual(["Europe/Berlin", "America/New_York"]);
  });

  it("answers Open-Meteo's messages", () => {
    expect(badRequestMessage(() => parse("latitude=522.52&longitude=13.41"))).toBe("Latitude must be in range of -90 to 90°. Given: 522.52.");
    expect(badRequestMessage(() => parse("latitude=52&longitude=190"))).toBe("Longitude must be in range of -180 to 180°. Given: 190.");
    expect(badRequestMessage(() => parse("latitude=1,2&longitude=3"))).toBe("Parameter 'latitude' and 'longitude' must have the same number of elements");
    expect(badRequestMessage(() => parse("hourly=temperature_2m"))).toBe("Parameter 'latitude' and 'longitude' must not be empty");
    const many = Array.from({ length: 101 }, () => "1").join(",");
    expect(badRequestMessage(() => parse(`latitude=${many}&longitude=${many}`))).toBe("Parameter 'latitude' and 'longitude' must not exceed 100 coordinates.");
    expect(badRequestMessage(() => parse("latitude=1&longitude=2&forecast_days=17"))).toBe("Forecast days is invalid. Allowed range 0 to 16. Given 17.");
    expect(badRequestMessage(() => parse("latitude=1&longitude=2&past_days=93"))).toBe("Past days is invalid. Allowed range 0 to 92. Given 93.");
    expect(badRequestMessage(() => parse("latitude=1&longitude=2&timezone=Mars/Olympus"))).toBe("Invalid timezone");
    expect(badRequestMessage(() => parse("latitude=1,2&longitude=3,4&timezone=UTC,UTC,UTC"))).toBe("Parameter 'timezone' and coordinates must have the same number of elements");
    expect(badRequestMessage(() => parse("latitude=1&longitude=2&temperature_unit=kelvin"))).toBe("Cannot initialize TemperatureUnit from invalid String value kelvin for key temperature_unit");
    expect(badRequestMessage(() => parse("latitude=1&longitude=2&hourly=tempeture_2m"))).toBe("Cannot initialize WeatherVariable from invalid String value tempeture_2m for key hourly");
    expect(badRequestMessage(() => parse("latitude=1&longitude=2&format=csv"))).toContain("format=json or format=flatbuffers");
    expect(badRequestMessage(() => parse("latitude=1&longitude=2&models=gfs_global,ecmwf_ifs025"))).toContain("one model per call");
  });
});

describe("the variables", () => {
  it("served names come from the slot, with the SDK's codes", () => {
    expect(hourlyVariable("temperature_2m", "hourly")).toMatchObject({ quantity: "temperature", source: { column: "surface" }, sdk: { variable: Variable.temperature, altitude: 2, aggregation: Aggregation.none } });
    expect(hourlyVariable("temperature_2m_max", "hourly").sdk).toMatchObject({ variable: Variable.temperature, altitude: 2, aggregation: Aggregation.maximum });
    expect(hourlyVariable("wind_gusts_10m", "hourly").sdk).toMatchObject({ variable: Variable.wind_gusts, altitude: 10 });
    expect(hourlyVariable("temperature_850hPa", "hourly")).toMatchObject({ source: { level: "temperature_850hPa" }, sdk: { variable: Variable.temperature, pressureLevel: 850 } });
    // An older spelling answers under its own name.
    expect(hourlyVariable("windspeed_10m", "hourly")).toMatchObject({ name: "windspeed_10m", source: { column: "speed" }, sdk: { variable: Variable.wind_speed, altitude: 10 } });
  });

  it("a name Open-Meteo knows and our store lacks has no source (null), with its unit", () => {
    expect(hourlyVariable("weather_code", "hourly")).toMatchObject({ source: undefined, quantity: "wmoCode", sdk: { variable: Variable.weather_code } });
    expect(hourlyVariable("dew_point_500hPa", "hourly")).toMatchObject({ source: undefined, quantity: "temperature", sdk: { variable: Variable.dew_point, pressureLevel: 500 } });
    expect(hourlyVariable("soil_temperature_0_to_7cm", "hourly").sdk).toMatchObject({ variable: Variable.soil_temperature, depth: 0, depthTo: 7 });
    expect(badRequestMessage(() => hourlyVariable("temperature_123hPa", "current"))).toBe("Cannot initialize WeatherVariable from invalid String value temperature_123hPa for key current");
  });

  it("daily names: the ones we compute, the ones Open-Meteo knows (null), and unknown ones", () => {
    expect(dailyVariable("precipitation_sum")).toMatchObject({ aggregate: { kind: "sum", column: "precipitation" }, sdk: { variable: Variable.precipitation, aggregation: Aggregation.sum } });
    expect(dailyVariable("wind_direction_10m_dominant").sdk).toMatchObject({ variable: Variable.wind_direction, altitude: 10, aggregation: Aggregation.dominant });
    expect(dailyVariable("sunrise")).toMatchObject({ quantity: "time", aggregate: { kind: "sunrise" } });
    expect(dailyVariable("uv_index_max").aggregate).toBeUndefined();
    expect(badRequestMessage(() => dailyVariable("temperature_2m_median"))).toBe("Cannot initialize ForecastVariableDaily from invalid String value temperature_2m_median for key daily");
  });
});

describe("units and numbers", () => {
  it("converts with Open-Meteo's factors and labels", () => {
    const kmh = conversionOf("windSpeed", DEFAULT_UNITS);
    expect([kmh.unit.label, kmh.unit.sdk, kmh.factor]).toEqual(["km/h", Unit.kilometres_per_hour, 3.6]);
    const f = conversionOf("temperature", { ...DEFAULT_UNITS, temperature: "fahrenheit" });
    expect(20 * f.factor + f.offset).toBe(68);
    expect(conversionOf("height", { ...DEFAULT_UNITS, precipitation: "inch" }).unit.label).toBe("ft");
    expect(conversionOf("precipitation", { ...DEFAULT_UNITS, precipitation: "inch" }).unit.decimals).toBe(3);
  });

  it("writes fixed decimals, halves away from zero, null for missing", () => {
    expect(formatValue(12, 1)).toBe("12.0");
    expect(formatValue(0.2, 2)).toBe("0.20");
    expect(formatValue(-1.25, 1)).toBe("-1.3");
    expect(formatValue(87.4, 0)).toBe("87");
    expect(formatValue(-0.04, 1)).toBe("0.0");
    expect(formatValue(NaN, 1)).toBe("null");
  });
});
