import { errors } from "../http/api-error.ts";
import type { HandlerResult } from "./endpoint.ts";

/**
 * The handler of an endpoint whose dataset reader is not written yet: the artifact may exist and
 * pass its envelope checks, but nothing can answer from it, so the answer is the spec's 503.
 */
export function notServedYet(datasets: readonly string[]): () => HandlerResult {
  return () => {
    throw errors.datasetUnavailable(datasets);
  };
}
