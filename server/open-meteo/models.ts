/**
 * The `models` parameter: `best_match` (our own model choice, as /weather/point makes it), one of
 * our model ids (gfs025, ecmwf-ifs-0p25, ...), or Open-Meteo's name of a model we store. The
 * answer then comes from that model's runs only; its SDK code names it in FlatBuffers answers.
 */
import { Model } from "@openmeteo/sdk/model.js";
import { ForecastStore } from "../../datasets/forecast/store.ts";
import { openMeteoError } from "./open-meteo-error.ts";

/** Open-Meteo's names of the models we ingest, with the SDK code each is answered under. */
export const OPEN_METEO_MODEL_NAMES: Readonly<Record<string, { model: string; sdk: Model }>> = {
  gfs_global: { model: "gfs025", sdk: Model.gfs_global },
  ncep_gfs_global: { model: "gfs025", sdk: Model.gfs_global },
  gfs025: { model: "gfs025", sdk: Model.gfs025 },
  ncep_gfs025: { model: "gfs025", sdk: Model.gfs025 },
  gfs05: { model: "gfs050", sdk: Model.gfs05 },
  ecmwf_ifs025: { model: "ecmwf-ifs-0p25", sdk: Model.ecmwf_ifs025 },
  gem_global: { model: "cmc-gdps", sdk: Model.gem_global },
  cmc_gem_gdps: { model: "cmc-gdps", sdk: Model.gem_global },
};

export interface ModelSelection {
  /** The store to choose a run from: the whole store, or one model's runs. */
  store: ForecastStore;
  sdk: Model;
}

const perModel = new WeakMap<ForecastStore, Map<string, ForecastStore>>();

/** One model's runs as a store of their own (made once per loaded store), so that the model choice of /weather/point applies within it. */
function storeOf(store: ForecastStore, model: string): ForecastStore | undefined {
  let byName = perModel.get(store);
  if (byName === undefined) {
    byName = new Map();
    perModel.set(store, byName);
  }
  let sub = byName.get(model);
  if (sub === undefined) {
    const runs = store.byModel.get(model);
    if (runs === undefined) return undefined;
    sub = new ForecastStore(store.index, store.metadata, runs);
    byName.set(model, sub);
  }
  return sub;
}

export function selectModel(store: ForecastStore, name: string): ModelSelection {
  if (name === "best_match") return { store, sdk: Model.best_match };
  const known = OPEN_METEO_MODEL_NAMES[name];
  const sub = storeOf(store, known?.model ?? name);
  if (sub === undefined) {
    throw openMeteoError(`Cannot initialize MultiDomains from invalid String value ${name} for key models (this server has ${["best_match", ...store.models()].join(", ")})`);
  }
  return { store: sub, sdk: known?.sdk ?? Model.undefined };
}
