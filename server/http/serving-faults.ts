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
import type { Answer, Layer } from "./exchange.ts";

export function servingFaults(registry: DatasetRegistry): Layer {
  return (x, next) => {
    const reported = (err: unknown): never => {
      const dataset = reportServingFault(registry, err, x.endpoint);
      throw dataset === undefined ? err : errors.datasetUnavailable([dataset]);
    };
    try {
      const a: Answer | Promise<Answer> = next();
      return a instanceof Promise ? a.catch(reported) : a;
    } catch (err) {
      return reported(err);
    }
  };
}
