/**
 * The forecast variable vocabulary: one name per physical quantity, shared by the pipeline's model
 * registry (which maps GRIB messages to these names) and the server (which reads them). Units are
 * the upstream (SI / GRIB) units; conversion for display is the endpoint's job.
 *
 * `scale` is the default storage resolution (value = offset + scale * integer). It is chosen at
 * least as fine as the packing precision of the GFS products we ingest, so that storing never
 * loses more than the GRIB encoding already did.
 */

export interface VariableDefinition {
  name: string;
  unit: string;
  description: string;
  scale: number;
  offset: number;
}

function v(name: string, unit: string, scale: number, description: string): VariableDefinition {
  return { name, unit, description, scale, offset: 0 };
}

export const VARIABLES: readonly VariableDefinition[] = [
  v("temperature_2m", "K", 0.01, "air temperature 2 m above ground"),
  v("temperature_2m_max", "K", 0.01, "maximum 2 m temperature over the step's window"),
  v("temperature_2m_min", "K", 0.01, "minimum 2 m temperature over the step's window"),
  v("relative_humidity_2m", "%", 0.01, "relative humidity 2 m above ground"),
  v("wind_u_10m", "m s-1", 0.01, "eastward wind 10 m above ground"),
  v("wind_v_10m", "m s-1", 0.01, "northward wind 10 m above ground"),
  v("wind_gust", "m s-1", 0.01, "wind gust at the surface (GFS GUST)"),
  v("pressure_msl", "Pa", 0.1, "pressure reduced to mean sea level (GFS PRMSL)"),
  v("precipitation", "kg m-2", 0.01, "total precipitation over the step's window"),
  v("precipitation_convective", "kg m-2", 0.01, "convective precipitation over the step's window"),
  v("cloud_cover", "%", 0.01, "total cloud cover (entire atmosphere)"),
  v("cloud_cover_high", "%", 0.01, "high cloud layer cover"),
  v("cloud_cover_mid", "%", 0.01, "middle cloud layer cover"),
  v("cloud_cover_low", "%", 0.01, "low cloud layer cover"),
  v("cloud_cover_convective", "%", 0.01, "convective cloud layer cover"),
  v("cloud_cover_boundary_layer", "%", 0.01, "boundary-layer cloud layer cover"),
  v("lifted_index", "K", 0.01, "surface lifted index (GFS LFTX)"),
  v("boundary_layer_height", "m", 0.01, "planetary boundary layer height (GFS HPBL)"),
  v("freezing_level_height", "gpm", 0.01, "geopotential height of the 0 degC isotherm"),
  v("temperature_925hPa", "K", 0.01, "air temperature at 925 hPa (low-level inversion test against 2 m)"),
  v("temperature_850hPa", "K", 0.01, "air temperature at 850 hPa (low-level inversion test against 2 m)"),
  // Constant over a run; stored per step like the others (a constant series costs 2-3 bytes a
  // cell), so that a run file stays self-contained. Read from the first present step.
  v("surface_height", "m", 0.01, "height of the model's surface (orography) above mean sea level (GFS HGT:surface)"),
];

const BY_NAME = new Map(VARIABLES.map((d) => [d.name, d]));

/** The definition of a vocabulary variable, or undefined for an unknown name. */
export function variableDefinition(name: string): VariableDefinition | undefined {
  return BY_NAME.get(name);
}

export const VARIABLE_NAMES: readonly string[] = VARIABLES.map((d) => d.name);
