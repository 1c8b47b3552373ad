import { ApiError } from "../http/api-error.ts";
import type { HandlerResult } from "./endpoint.ts";

/**
 * The handler of an endpoint that this version cannot answer yet even when its datasets are
 * loaded: the spec's 503, saying so plainly (not "dataset missing", which /health would contradict).
 */
export function notServedYet(datasets: readonly string[]): () => HandlerResult {
  return () => {
    throw new ApiError(503, `Service temporarily unavailable: this version does not yet answer this endpoint from dataset ${datasets.map((d) => `'${d}'`).join(", ")}.`);
  };
}
