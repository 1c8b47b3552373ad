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

/**
 * Every step, in the order `build-default` runs them, beside the module (project-relative) that
 * defines it: where `build-default` starts the step's code fingerprint (code-fingerprint.test.ts
 * checks that the module exports the step).
 */
const DECLARED: readonly (readonly [PipelineStep, string])[] = [
  [elevationStep, "pipeline/elevation/step.ts"],
  [placesStep, "pipeline/places/step.ts"],
  [adminStep, "pipeline/admin/step.ts"],
  [stationsStep, "pipeline/stations/step.ts"],
  [forecastStep, "pipeline/forecast/step.ts"],
  [gribInspectStep, "pipeline/grib/inspect-step.ts"],
];

export const STEPS: readonly PipelineStep[] = DECLARED.map(([step]) => step);

/** The module of each step, by step name. */
export const STEP_MODULES: Readonly<Record<string, string>> = Object.fromEntries(DECLARED.map(([step, module]) => [step.name, module]));
