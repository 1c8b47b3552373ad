/**
 * What follows a fault found while serving (DatasetRegistry.reportFault): bit rot keeps a file's
 * size and times, so the checks remembered cannot see it; only reading the bytes does. The fault
 * is logged, and the file it names (every file of the release when the reader named none) is
 * hashed again, ignoring what was remembered. Intact: the dataset stays degraded (the fault is
 * in the reader, or was in memory), /health says so. Damaged: its remembered check is forgotten
 * (a restart hashes it and refuses the release), and the newest older release that passes its
 * checks serves instead (fallback.ts); with none, the damaged release keeps serving what it can,
 * degraded.
 */
import path from "node:path";
import type { DatasetName } from "../../datasets/catalog.ts";
import type { Config } from "../../datasets/common/config.ts";
import { DataFormatError } from "../../datasets/common/errors.ts";
import type { Logger } from "../../datasets/common/log.ts";
import { fileVersion } from "../../datasets/releases/checked-files.ts";
import { sha256Files } from "../../datasets/releases/hash-files.ts";
import { shownPath } from "../../datasets/releases/layout.ts";
import type { ReleaseFile } from "../../datasets/releases/manifest.ts";
import { openNewestGood } from "./fallback.ts";
import { saveChecked, withoutDataDir } from "./open-dataset.ts";
import type { LoaderTable } from "./loader.ts";
import type { ServedRelease } from "./open-dataset.ts";
import type { DatasetRegistry } from "./registry.ts";

export type FaultCheckContext = {
  config: Config;
  logger: Logger;
  registry: DatasetRegistry;
  loaders: LoaderTable;
  /** Called after a fallback was swapped in, with the closer of the value replaced. */
  swapped: (dataset: DatasetName, close: (() => Promise<void> | void) | undefined) => void;
};

/** The release's files a reader's `file` names: absolute, relative to the release or to the data directory. */
export function filesNamed(served: ServedRelease, file: string | undefined, dataDir: string): ReleaseFile[] {
  if (file === undefined) return [];
  const candidates = path.isAbsolute(file) ? [path.relative(served.dir, file)] : [file, path.relative(served.dir, path.join(dataDir, file))];
  const wanted = new Set(candidates.map((c) => c.split(path.sep).join("/")));
  return served.manifest.files.filter((f) => wanted.has(f.path));
}

/**
 * The dataset a fault raised while answering belongs to, after reporting it; undefined when
 * `err` is not a data fault (DataFormatError). Of the datasets the endpoint reads, the one whose
 * release holds the file the error names, else the first it needs.
 */
export function reportServingFault(registry: DatasetRegistry, err: unknown, endpoint: { datasets: readonly DatasetName[]; optionalDatasets?: readonly DatasetName[] } | undefined): DatasetName | undefined {
  const datasets = [...(endpoint?.datasets ?? []), ...(endpoint?.optionalDatasets ?? [])];
  if (!(err instanceof DataFormatError) || datasets.length === 0) return undefined;
  const file = err.where.file;
  const holder = datasets.find((d) => {
    const served = registry.servedRelease(d);
    return served !== undefined && filesNamed(served, file, registry.dataDir ?? "").length > 0;
  });
  const dataset = holder ?? datasets[0]!;
  registry.reportFault(dataset, file, err);
  return dataset;
}

/** Hashes `files` again (nothing remembered is trusted); the first that differs, with what it holds. */
async function firstDamaged(served: ServedRelease, files: readonly ReleaseFile[]): Promise<{ file: ReleaseFile; got: string } | undefined> {
  let sums: string[];
  try {
    sums = await sha256Files(files.map((f) => path.join(served.dir, f.path)));
  } catch (err) {
    const gone = files.find((f) => (err as Error).message.includes(f.path.split("/").join(path.sep)));
    return { file: gone ?? files[0]!, got: `an unreadable file (${(err as NodeJS.ErrnoException).code ?? (err as Error).message})` };
  }
  const i = files.findIndex((f, k) => sums[k] !== f.sha256);
  return i < 0 ? undefined : { file: files[i]!, got: `SHA-256 ${sums[i]!}` };
}

export async function checkFault(ctx: FaultCheckContext, dataset: DatasetName, file: string | undefined, error: Error): Promise<void> {
  const { registry, logger, config } = ctx;
  const served = registry.servedRelease(dataset);
  const shown = file !== undefined ? withoutDataDir(file, config.dataDir) : undefined;
  logger.error("dataset fault while serving; checking the file again", { dataset, release: served?.release, file: shown, reason: withoutDataDir(error.message, config.dataDir) });
  if (!served) {
    registry.setFaultCheck(dataset, "intact", "no release.json to check against (the unreleased layout)");
    return;
  }
  const named = filesNamed(served, file, config.dataDir);
  const damaged = await firstDamaged(served, named.length > 0 ? named : served.manifest.files);
  if (registry.servedRelease(dataset) !== served) return; // another release serves meanwhile
  const what = named.length > 0 ? named.map((f) => f.path).join(", ") : `every file of release ${served.release}`;
  if (!damaged) {
    registry.setFaultCheck(dataset, "intact", `${what}: SHA-256 as released`);
    logger.warn("the faulty file is intact on disk", { dataset, release: served.release, files: what });
    return;
  }
  const full = path.join(served.dir, damaged.file.path);
  const reason = `${shownPath(config.dataDir, full)}: expected SHA-256 ${damaged.file.sha256}, got ${damaged.got}`;
  const version = await fileVersion(full).catch(() => undefined);
  if (version !== undefined) registry.checked?.forget(version);
  await saveChecked(registry.checked, logger);
  registry.setFaultCheck(dataset, "damaged", reason);
  logger.error("file damaged on disk", { dataset, release: served.release, reason });
  const fallback = await openNewestGood(dataset, served.release, config, logger, ctx.loaders, registry.checked);
  if (!fallback) {
    logger.error("no older release passes its checks; the damaged release keeps serving what it can", { dataset, release: served.release });
    return;
  }
  const old = registry.swap(dataset, fallback.loaded, fallback.loadMs, fallback.release, fallback.served);
  registry.refuse(dataset, served.release, reason);
  ctx.swapped(dataset, old);
  logger.error("damaged release refused; serving the newest older release that passes its checks", { dataset, refused: served.release, serving: fallback.release });
}
