/**
 * A fault in a dataset's bytes found while answering (a DataFormatError from a reader: bit rot
 * that kept the file's size and times, so the remembered checks could not see it) is reported to
 * the registry (server/datasets/fault-check.ts: logged, the file hashed again, the dataset marked
 * degraded or replaced by an older good release) and answered as a 503 naming the dataset.
 * Other errors pass through unchanged to the failure layer outside this one.
 */
import { errors } from "../api/api-error.ts";
import { reportServingFault } from "../datasets/fault-check.ts";
import type { DatasetRegistry } from "../datasets/registry.ts";
import type { Answer, Exchange, Layer } from "./exchange.ts";

export function servingFaults(registry: DatasetRegistry): Layer {
  const reported = (err: unknown, x: Exchange): never => {
    const dataset = reportServingFault(registry, err, x.endpoint);
    throw dataset === undefined ? err : errors.datasetUnavailable([dataset]);
  };
  return (x, next) => {
    try {
      const a: Answer | Promise<Answer> = next(x);
      return a instanceof Promise ? a.catch((err: unknown) => reported(err, x)) : a;
    } catch (err) {
      return reported(err, x);
    }
  };
}
