/**
 * Which endpoint a request is for (`route`, before the key: a foreign API's key may be in its
 * query), then, after the key and the limit, what it asks (`parse`): the path (404), the query
 * parameters (400), the datasets (503, naming them), taken with their states in one tick so that
 * a reload cannot slip in between.
 */
import type { DatasetName } from "../../datasets/catalog.ts";
import { errors } from "../api/api-error.ts";
import { Query } from "../api/query.ts";
import type { DatasetRegistry } from "../datasets/registry.ts";
import type { Endpoint } from "../endpoints/endpoint.ts";
import type { LoadedDatasets } from "../endpoints/loaded-datasets.ts";
import { forecastRunsDue } from "./cache.ts";
import type { Layer, StatesOf } from "./exchange.ts";

export function route(endpoints: readonly Endpoint[]): Layer {
  const byPath = new Map(endpoints.map((e) => [e.path, e] as const));
  return (x, next) => {
    const endpoint = byPath.get(x.path);
    if (endpoint !== undefined) {
      x.endpoint = endpoint;
      x.foreign = endpoint.foreign;
    }
    return next(x);
  };
}

/** What an endpoint takes from one generation of the datasets. */
interface Taken {
  data: LoadedDatasets;
  used: readonly DatasetName[];
}

function take(registry: DatasetRegistry<LoadedDatasets>, endpoint: Endpoint): Taken {
  const unavailable = endpoint.datasets.filter((d) => !registry.isReady(d));
  if (unavailable.length > 0) throw errors.datasetUnavailable(unavailable);
  const used: DatasetName[] = [...endpoint.datasets];
  for (const d of endpoint.optionalDatasets ?? []) if (registry.isReady(d)) used.push(d);
  const data: Partial<Record<DatasetName, unknown>> = {};
  for (const d of used) data[d] = registry.get(d);
  return { data: data as LoadedDatasets, used };
}

export function parse(registry: DatasetRegistry<LoadedDatasets>): Layer {
  let statesOf: StatesOf | undefined;
  // Per endpoint, the datasets of the current generation: what is served changes only with it
  // (registry.generation counts every load, swap and failure), so they are gathered once per generation.
  let taken = new Map<Endpoint, Taken>();
  return (x, next) => {
    const endpoint = x.endpoint;
    if (endpoint === undefined) throw errors.unknownPath(x.path);
    x.route = endpoint.path;
    x.params = endpoint.parse(new Query(x.query, endpoint.params));
    // The states of the datasets taken (same tick), recomputed only when the datasets change.
    if (statesOf?.generation !== registry.generation) {
      const states = registry.list();
      statesOf = { generation: registry.generation, states, runsDue: forecastRunsDue(states.find((s) => s.name === "forecast")) };
      taken = new Map();
    }
    let t = taken.get(endpoint);
    if (t === undefined) {
      t = take(registry, endpoint);
      taken.set(endpoint, t);
    }
    x.data = t.data;
    x.used = t.used;
    x.states = statesOf;
    return next(x);
  };
}
