/**
 * The forecast dataset loader: opens `forecast/index.bin` and every run it lists once at startup,
 * each kept open and read where it lies (positioned reads through the page cache, which every
 * worker shares), so a point forecast is a few reads and a few thousand integer decodes.
 */
import path from "node:path";
import { modelLicence } from "../../datasets/forecast/licences.ts";
import { openForecastStore, type ForecastStore } from "../../datasets/forecast/store.ts";
import type { DatasetLoader } from "../datasets/loader.ts";

export const loadForecast: DatasetLoader<ForecastStore> = async (ctx) => {
  const store = await openForecastStore(path.dirname(ctx.file));
  const facts: Record<string, unknown> = {
    models: store.models().map((model) => {
      const runs = store.byModel.get(model)!;
      const latest = runs[0]!.meta;
      return {
        model,
        runs: runs.map((r) => r.meta.runTime),
        steps: latest.steps.length,
        grid: latest.grid,
        variables: latest.variables.map((v) => v.name),
        licence: modelLicence(model) ?? null,
      };
    }),
  };
  ctx.logger.info("forecast store opened", { runs: store.runs.length, models: store.models() });
  return { value: store, metadata: store.metadata, facts, close: () => store.close() };
};
