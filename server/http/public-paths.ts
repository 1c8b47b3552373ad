/**
 * The paths answered without a key: /health/live and /health/ready (for load balancers and
 * orchestrators: live while the process answers; ready when every dataset serves and the process
 * is not draining), /health, /openapi.json and the docs page (/ and /docs/*).
 */
import { errors } from "../api/api-error.ts";
import type { DatasetRegistry } from "../datasets/registry.ts";
import type { DocsAsset } from "../docs-page/docs-page.ts";
import type { LoadedDatasets } from "../endpoints/loaded-datasets.ts";
import { newestRunTimeOf } from "./cache.ts";
import { answerOf, type Answer, type Layer } from "./exchange.ts";
import { staticBody, successBody } from "./respond.ts";

export interface PublicDeps {
  registry: DatasetRegistry<LoadedDatasets>;
  openapi: () => unknown;
  startedAt: Date;
  /** Draining before a shutdown (SIGTERM): /health/ready answers 503 while requests are still served. */
  isDraining: () => boolean;
  /** The docs page and its assets; undefined for any other path. */
  docs?: (path: string) => DocsAsset | undefined;
}

export function publicPaths(deps: PublicDeps): Layer {
  let openapiBody: Buffer | undefined;
  const answers: Record<string, (now: Date) => Answer> = {
    "/health/live": () => answerOf(200, successBody(200, { live: true })),
    "/health/ready": () => {
      const notReady = deps.registry.list().filter((d) => !deps.registry.isReady(d.name)).map((d) => d.name);
      if (deps.isDraining()) throw errors.notReady("the server is draining before it stops");
      if (notReady.length > 0) throw errors.notReady(`dataset ${notReady.map((n) => `'${n}'`).join(", ")} not loaded; see GET /health`);
      return answerOf(200, successBody(200, { ready: true }));
    },
    "/health": (now) => {
      // Read afresh: a refused reload changes what /health says without changing what serves.
      const datasets = deps.registry.list();
      const newestRunTime = newestRunTimeOf(datasets.find((s) => s.name === "forecast"));
      const at = now.getTime();
      return answerOf(
        200,
        successBody(200, {
          service: "geodata",
          state: datasets.every((d) => d.status === "ready") ? "ready" : "degraded",
          startedAt: deps.startedAt.toISOString(),
          uptimeSeconds: Math.round((at - deps.startedAt.getTime()) / 1000),
          // How old the newest forecast run is: a sample run years old says that a nightly is due.
          ...(newestRunTime !== undefined ? { newestForecastRun: { runTime: new Date(newestRunTime).toISOString().replace(".000Z", "Z"), ageSeconds: Math.max(0, Math.floor((at - Date.parse(newestRunTime)) / 1000)) } } : {}),
          datasets,
        }),
      );
    },
    // Serialized and compressed once (respond.ts staticBody), not per request.
    "/openapi.json": () => answerOf(200, (openapiBody ??= staticBody(Buffer.from(JSON.stringify(deps.openapi()), "utf8"))), { "Cache-Control": "public, max-age=3600" }),
  };
  return (x, next) => {
    const answer = Object.hasOwn(answers, x.path) ? answers[x.path] : undefined;
    if (answer !== undefined) {
      x.route = x.path;
      return (answer(x.now));
    }
    const page = deps.docs?.(x.path);
    if (page === undefined) return next(x);
    x.route = "docs";
    return (answerOf(200, page.body, { "Content-Type": page.contentType, "Cache-Control": page.cacheControl, ETag: page.etag }));
  };
}
