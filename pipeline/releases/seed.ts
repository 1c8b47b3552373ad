/**
 * What a new release must hold before its step runs, taken from the release serving (or the
 * unreleased layout): the stations database to merge into when the step merges (`--merge`: a
 * copy, DuckDB writes in place), and the forecast runs the step keeps (hard links: run files never
 * change once written, and the new release costs no space for them).
 */
import { promises as fs } from "node:fs";
import path from "node:path";
import { DATASETS, type DatasetName } from "../../datasets/catalog.ts";
import { CheckedFiles, keepingChecks } from "../../datasets/releases/checked-files.ts";

/** Hard-links (or copies, across file systems) every file of `from` into `to`, recursively. */
async function linkTree(from: string, to: string): Promise<void> {
  await fs.mkdir(to, { recursive: true });
  for (const e of await fs.readdir(from, { withFileTypes: true })) {
    const a = path.join(from, e.name);
    const b = path.join(to, e.name);
    if (e.isDirectory()) await linkTree(a, b);
    else if (e.isFile()) await fs.link(a, b).catch(() => fs.copyFile(a, b));
  }
}

/** Every regular file under `dir`, absolute. */
async function filesUnder(dir: string): Promise<string[]> {
  const out: string[] = [];
  for (const e of await fs.readdir(dir, { withFileTypes: true })) {
    if (e.isDirectory()) out.push(...(await filesUnder(path.join(dir, e.name))));
    else if (e.isFile()) out.push(path.join(dir, e.name));
  }
  return out;
}

/** The data directory of a release or assembly directory (`<dataDir>/releases/<dataset>/<id>`). */
function dataDirOf(releaseDir: string): string {
  return path.resolve(releaseDir, "..", "..", "..");
}

export async function seedRelease(dataset: DatasetName, previousDir: string | undefined, releaseDir: string, args: readonly string[]): Promise<void> {
  if (!previousDir) return;
  if (dataset === "stations" && args.includes("--merge")) {
    const from = path.join(previousDir, DATASETS.stations.file);
    const to = path.join(releaseDir, DATASETS.stations.file);
    await fs.mkdir(path.dirname(to), { recursive: true });
    await fs.copyFile(from, to).catch((err: NodeJS.ErrnoException) => {
      if (err.code !== "ENOENT") throw err;
    });
  } else if (dataset === "forecast") {
    const from = path.join(previousDir, "forecast");
    if (!(await fs.stat(from).then((s) => s.isDirectory(), () => false))) return;
    // The links change the files' ctime: their remembered checks are carried over, so that the
    // new release's release.json and the server's check do not hash the runs kept again.
    const checked = await CheckedFiles.open(dataDirOf(releaseDir));
    await keepingChecks(checked, await filesUnder(from), () => linkTree(from, path.join(releaseDir, "forecast")));
    await checked.save();
  }
}
