/**
 * Licences shown for each forecast model: the attribution texts the providers ask for (ECMWF's
 * open data terms: "Copyright © ECMWF. Source www.ecmwf.int. Licence: CC BY 4.0", plus a note of
 * changes as CC BY 4.0 requires; ECCC: the Data Servers End-use Licence by name), matched by
 * model id, and every registry model has one.
 */
import { describe, expect, it } from "vitest";
import { ECCC_LICENCE, ECMWF_LICENCE, NOAA_GFS_LICENCE, modelLicence } from "../../../datasets/forecast/licences.ts";
import { MODELS } from "../../../pipeline/forecast/models/registry.ts";

describe("forecast model licences", () => {
  it("ECMWF: CC BY 4.0 with ECMWF's attribution sentence and a statement of changes", () => {
    expect(modelLicence("ecmwf-ifs-0p25")).toBe(ECMWF_LICENCE);
    expect(ECMWF_LICENCE.licence).toBe("CC BY 4.0");
    expect(ECMWF_LICENCE.attribution.startsWith("Copyright © European Centre for Medium-Range Weather Forecasts (ECMWF). Source www.ecmwf.int. Licence: CC BY 4.0.")).toBe(true);
    expect(ECMWF_LICENCE.attribution).toContain("Changes:");
  });

  it("ECCC: the Environment and Climate Change Canada Data Servers End-use Licence", () => {
    expect(modelLicence("cmc-gdps")).toBe(ECCC_LICENCE);
    expect(ECCC_LICENCE.licence).toBe("Environment and Climate Change Canada Data Servers End-use Licence");
  });

  it("every registry model has a licence (GFS: NOAA, public domain); unknown ids have none", () => {
    for (const m of MODELS) expect(modelLicence(m.id), m.id).toBeDefined();
    expect(modelLicence("gfs025")).toBe(NOAA_GFS_LICENCE);
    expect(modelLicence("unknown-model")).toBeUndefined();
  });
});
