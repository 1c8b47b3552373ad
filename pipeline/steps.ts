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
