/**
 * The variable names Open-Meteo's forecast API knows, so that a name it knows and our store lacks
 * answers null (never invented) while a name it does not know is a 400, as Open-Meteo answers it.
 * - Hourly and current: the names of its published OpenAPI description (openapi/forecast.yml of
 *   open-meteo/open-meteo), surface and pressure-level ones, plus the older spellings it still
 *   accepts (Sources/App/Controllers/VariableHourly.swift).
 * - Daily: the cases of ForecastVariableDaily (Sources/App/Controllers/VariableDaily.swift).
 */

export const OPEN_METEO_HOURLY_NAMES: readonly string[] = [
  "temperature_2m", "temperature_2m_min", "temperature_2m_max", "relative_humidity_2m", "dew_point_2m",
  "apparent_temperature", "precipitation_probability", "precipitation", "rain", "showers", "snowfall",
  "snow_depth", "snowfall_water_equivalent", "snow_depth_water_equivalent", "weather_code", "pressure_msl",
  "surface_pressure", "cloud_cover", "cloud_cover_low", "cloud_cover_mid", "cloud_cover_high", "visibility",
  "evapotranspiration", "et0_fao_evapotranspiration", "vapour_pressure_deficit", "runoff",
  "precipitation_type", "rain_probability", "snowfall_probability", "freezing_rain_probability",
  "ice_pellets_probability", "thunderstorm_probability", "wind_speed_10m", "wind_speed_20m",
  "wind_speed_30m", "wind_speed_40m", "wind_speed_50m", "wind_speed_70m", "wind_speed_80m",
  "wind_speed_100m", "wind_speed_120m", "wind_speed_140m", "wind_speed_150m", "wind_speed_160m",
  "wind_speed_180m", "wind_speed_200m", "wind_direction_10m", "wind_direction_20m", "wind_direction_30m",
  "wind_direction_40m", "wind_direction_50m", "wind_direction_70m", "wind_direction_80m",
  "wind_direction_100m", "wind_direction_120m", "wind_direction_140m", "wind_direction_150m",
  "wind_direction_160m", "wind_direction_180m", "wind_direction_200m", "wind_gusts_10m", "temperature_20m",
  "temperature_40m", "temperature_50m", "temperature_80m", "temperature_100m", "temperature_120m",
  "temperature_150m", "temperature_180m", "temperature_200m", "soil_temperature_0cm", "soil_temperature_6cm",
  "soil_temperature_18cm", "soil_temperature_54cm", "soil_temperature_162cm", "soil_temperature_486cm",
  "soil_temperature_1458cm", "soil_temperature_0_to_7cm", "soil_temperature_7_to_28cm",
  "soil_temperature_28_to_100cm", "soil_temperature_100_to_255cm", "soil_temperature_0_to_10cm",
  "soil_temperature_10_to_40cm", "soil_temperature_40_to_100cm", "soil_temperature_100_to_200cm",
  "soil_temperature_10_to_35cm", "soil_temperature_35_to_100cm", "soil_temperature_100_to_300cm",
  "soil_moisture_0_to_1cm", "soil_moisture_1_to_3cm", "soil_moisture_3_to_9cm", "soil_moisture_9_to_27cm",
  "soil_moisture_27_to_81cm", "soil_moisture_81_to_243cm", "soil_moisture_243_to_729cm",
  "soil_moisture_729_to_2187cm", "soil_moisture_0_to_7cm", "soil_moisture_7_to_28cm",
  "soil_moisture_28_to_100cm", "soil_moisture_100_to_255cm", "soil_moisture_0_to_10cm",
  "soil_moisture_10_to_40cm", "soil_moisture_40_to_100cm", "soil_moisture_100_to_200cm",
  "soil_moisture_10_to_35cm", "soil_moisture_35_to_100cm", "soil_moisture_100_to_300cm", "uv_index",
  "uv_index_clear_sky", "is_day", "sunshine_duration", "wet_bulb_temperature_2m",
  "total_column_integrated_water_vapour", "cape", "lifted_index", "convective_inhibition",
  "freezing_level_height", "boundary_layer_height", "surface_temperature", "mass_density_8m",
  "snowfall_height", "convective_cloud_base", "convective_cloud_top", "updraft", "lightning_potential",
  "lightning_density", "snow_height", "roughness_length", "albedo", "k_index", "sea_level_height_msl",
  "sea_ice_thickness", "sea_surface_temperature", "ocean_current_velocity", "ocean_current_direction",
  "shortwave_radiation", "direct_radiation", "diffuse_radiation", "direct_normal_irradiance",
  "global_tilted_irradiance", "terrestrial_radiation", "shortwave_radiation_instant",
  "direct_radiation_instant", "diffuse_radiation_instant", "direct_normal_irradiance_instant",
  "global_tilted_irradiance_instant", "terrestrial_radiation_instant",
];

/** Older spellings Open-Meteo still accepts, with the name they stand for. */
export const OPEN_METEO_HOURLY_ALIASES: Readonly<Record<string, string>> = {
  temperature: "temperature_2m",
  windspeed: "wind_speed_10m",
  winddirection: "wind_direction_10m",
  weathercode: "weather_code",
  relativehumidity_2m: "relative_humidity_2m",
  dewpoint_2m: "dew_point_2m",
  cloudcover: "cloud_cover",
  cloudcover_low: "cloud_cover_low",
  cloudcover_mid: "cloud_cover_mid",
  cloudcover_high: "cloud_cover_high",
  windspeed_10m: "wind_speed_10m",
  winddirection_10m: "wind_direction_10m",
  windgusts_10m: "wind_gusts_10m",
  freezinglevel_height: "freezing_level_height",
  surface_air_pressure: "surface_pressure",
};

/** Pressure-level variables: `<name>_<level>hPa`. */
export const OPEN_METEO_PRESSURE_VARIABLES: readonly string[] = ["temperature", "dew_point", "relative_humidity", "cloud_cover", "wind_speed", "wind_direction", "vertical_velocity", "geopotential_height"];
export const OPEN_METEO_PRESSURE_LEVELS: readonly number[] = [1000, 950, 925, 900, 850, 800, 750, 700, 650, 600, 550, 500, 450, 400, 350, 300, 275, 250, 225, 200, 175, 150, 125, 100, 50, 10];

export const OPEN_METEO_DAILY_NAMES: readonly string[] = [
  "apparent_temperature_max", "apparent_temperature_mean", "apparent_temperature_min", "cape_max",
  "cape_mean", "cape_min", "cloudcover_max", "cloudcover_mean", "cloudcover_min", "cloud_cover_max",
  "cloud_cover_mean", "cloud_cover_min", "dewpoint_2m_max", "dewpoint_2m_mean", "dewpoint_2m_min",
  "dew_point_2m_max", "dew_point_2m_mean", "dew_point_2m_min", "et0_fao_evapotranspiration",
  "et0_fao_evapotranspiration_sum", "growing_degree_days_base_0_limit_50", "leaf_wetness_probability_mean",
  "precipitation_hours", "precipitation_probability_max", "precipitation_probability_mean",
  "precipitation_probability_min", "precipitation_sum", "pressure_msl_max", "pressure_msl_mean",
  "pressure_msl_min", "rain_sum", "relative_humidity_2m_max", "relative_humidity_2m_mean",
  "relative_humidity_2m_min", "shortwave_radiation_sum", "showers_sum", "snowfall_sum",
  "snowfall_water_equivalent_sum", "snow_depth_min", "snow_depth_mean", "snow_depth_max",
  "soil_moisture_0_to_100cm_mean", "soil_moisture_0_to_10cm_mean", "soil_moisture_0_to_7cm_mean",
  "soil_moisture_28_to_100cm_mean", "soil_moisture_7_to_28cm_mean", "soil_moisture_index_0_to_100cm_mean",
  "soil_moisture_index_0_to_7cm_mean", "soil_moisture_index_100_to_255cm_mean",
  "soil_moisture_index_28_to_100cm_mean", "soil_moisture_index_7_to_28cm_mean",
  "soil_temperature_0_to_100cm_mean", "soil_temperature_0_to_7cm_mean", "soil_temperature_28_to_100cm_mean",
  "soil_temperature_7_to_28cm_mean", "sunrise", "sunset", "moonrise", "moonset", "moon_phase",
  "daylight_duration", "sunshine_duration", "surface_pressure_max", "surface_pressure_mean",
  "surface_pressure_min", "temperature_2m_max", "temperature_2m_mean", "temperature_2m_min", "updraft_max",
  "uv_index_clear_sky_max", "uv_index_max", "vapor_pressure_deficit_max", "vapour_pressure_deficit_max",
  "visibility_max", "visibility_mean", "visibility_min", "weathercode", "weather_code",
  "winddirection_10m_dominant", "windgusts_10m_max", "windgusts_10m_mean", "windgusts_10m_min",
  "windspeed_10m_max", "windspeed_10m_mean", "windspeed_10m_min", "wind_direction_10m_dominant",
  "wind_gusts_10m_max", "wind_gusts_10m_mean", "wind_gusts_10m_min", "wind_speed_10m_max",
  "wind_speed_10m_mean", "wind_speed_10m_min", "wet_bulb_temperature_2m_max", "wet_bulb_temperature_2m_mean",
  "wet_bulb_temperature_2m_min", "wind_direction_100m_dominant", "wind_direction_200m_dominant",
  "wind_speed_100m_max", "wind_speed_100m_mean", "wind_speed_100m_min", "wind_speed_200m_max",
  "wind_speed_200m_mean", "wind_speed_200m_min", "sea_surface_temperature_min",
  "sea_surface_temperature_max", "sea_surface_temperature_mean", "soil_temperature_100_to_255cm_mean",
  "soil_moisture_100_to_255cm_mean", "river_discharge", "river_discharge_mean", "river_discharge_min",
  "river_discharge_max", "river_discharge_median", "river_discharge_p25", "river_discharge_p75",
  "wave_height_max", "wind_wave_height_max", "swell_wave_height_max", "wave_direction_dominant",
  "wind_wave_direction_dominant", "swell_wave_direction_dominant", "wave_period_max", "wind_wave_period_max",
  "wind_wave_peak_period_max", "swell_wave_period_max", "swell_wave_peak_period_max",
];
