/**
 * The declared list of pipeline steps, in the order `build-default` runs them.
 */
import type { PipelineStep } from "./common/step.ts";
import { adminStep } from "./admin/step.ts";
import { elevationStep } from "./elevation/step.ts";
import { forecastStep } from "./forecast/step.ts";
import { gribInspectStep } from "./grib/inspect-step.ts";
import { placesStep } from "./places/step.ts";
import { stationsStep } from "./stations/step.ts";

export const STEPS: readonly PipelineStep[] = [
  elevationStep,
  placesStep,
  adminStep,
  stationsStep,
  forecastStep,
  gribInspectStep,
];

/** The module (project-relative) that defines each step: where `build-default` starts the step's code fingerprint. */
export const STEP_MODULES: Readonly<Record<string, string>> = {
  elevation: "pipeline/elevation/step.ts",
  places: "pipeline/places/step.ts",
  admin: "pipeline/admin/step.ts",
  stations: "pipeline/stations/step.ts",
  forecast: "pipeline/forecast/step.ts",
  [gribInspectStep.name]: "pipeline/grib/inspect-step.ts",
};
