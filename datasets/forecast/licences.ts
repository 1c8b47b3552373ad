/**
 * Who publishes each forecast model's data and under which terms, with the attribution text users
 * must be shown (README, docs/forecast.md, /health facts of the forecast dataset). Shared by the
 * pipeline's registry and the server (which cannot import the pipeline); models are matched by
 * their id's prefix.
 */

export interface DataLicence {
  provider: string;
  licence: string;
  /** Text to show wherever the data is shown. */
  attribution: string;
  url: string;
}

export const NOAA_GFS_LICENCE: DataLicence = {
  provider: "NOAA National Centers for Environmental Prediction (NCEP)",
  licence: "public domain (US Government work)",
  attribution: "NCEP GFS data courtesy of NOAA.",
  url: "https://www.weather.gov/disclaimer",
};

export const ECMWF_LICENCE: DataLicence = {
  provider: "European Centre for Medium-Range Weather Forecasts (ECMWF)",
  licence: "CC BY 4.0",
  attribution:
    "Copyright © European Centre for Medium-Range Weather Forecasts (ECMWF). Source www.ecmwf.int. Licence: CC BY 4.0. Changes: decoded, sampled to point series and stored at reduced resolution.",
  url: "https://creativecommons.org/licenses/by/4.0/",
};

export const ECCC_LICENCE: DataLicence = {
  provider: "Environment and Climate Change Canada (ECCC)",
  licence: "Environment and Climate Change Canada Data Servers End-use Licence",
  attribution: "Contains information licensed under the Environment and Climate Change Canada Data Servers End-use Licence. Data Source: Environment and Climate Change Canada.",
  url: "https://eccc-msc.github.io/open-data/licence/readme_en/",
};

const BY_PREFIX: readonly [string, DataLicence][] = [
  ["gfs", NOAA_GFS_LICENCE],
  ["ecmwf-", ECMWF_LICENCE],
  ["cmc-", ECCC_LICENCE],
];

/** The licence of a model id, or undefined for an unknown provider. */
export function modelLicence(model: string): DataLicence | undefined {
  return BY_PREFIX.find(([prefix]) => model.startsWith(prefix))?.[1];
}
