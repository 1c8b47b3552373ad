/** Which runs the inputs hold (sample files) or which cycle is the newest published (upstream). */
import { MissingInputError } from "../../datasets/common/errors.ts";
import type { Logger } from "../../datasets/common/log.ts";
import type { GribCodec } from "./grib-codec.ts";
import type { GribSource } from "./grib-source.ts";
import type { ModelDomain } from "./models/types.ts";

/** Reference times found in the files (from their .idx, else by scanning), newest first. */
export async function findRuns(files: readonly string[], source: GribSource, codec: GribCodec): Promise<Date[]> {
  const times = new Set<number>();
  for (const file of files) {
    if (!(await source.exists(file))) continue;
    const inventory = await source.inventory(file);
    if (inventory) for (const e of inventory) times.add(e.referenceTime.getTime());
    else for (const f of codec.scan(await source.whole(file), source.locate(file))) times.add(f.referenceTime.getTime());
  }
  if (times.size === 0) throw new MissingInputError(files.map((f) => source.locate(f)).join(", "), "GRIB files of the model");
  return [...times].sort((a, b) => b - a).map((t) => new Date(t));
}

/** The newest cycle (of the last 48 hours) whose first file's inventory is published. */
export async function latestRun(domain: ModelDomain, source: GribSource, logger: Logger, now = new Date()): Promise<Date> {
  const start = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate(), now.getUTCHours()));
  for (let back = 0; back <= 48; back++) {
    const t = new Date(start.getTime() - back * 3600_000);
    if (!domain.runHours.includes(t.getUTCHours())) continue;
    const first = domain.files(t, domain.steps.slice(0, 1))[0]!.path;
    if (await source.exists(`${first}.idx`)) {
      logger.info("latest run", { runTime: t.toISOString() });
      return t;
    }
  }
  throw new MissingInputError(source.locate(domain.files(start, domain.steps.slice(0, 1))[0]!.path), `a run of ${domain.id} in the last 48 hours`);
}
