/**
 * The files this data directory already holds for a dataset, by SHA-256, as its releases'
 * release.json files list them: a file of a new release with the same checksum is hard-linked
 * from there instead of downloaded (forecast runs are gigabytes, and a new release mostly keeps
 * the previous one's). A release's files were checked when it arrived, so the size is checked
 * again here, not the checksum (the server checks every file before serving the new release).
 */
import { promises as fs } from "node:fs";
import path from "node:path";
import type { DatasetName } from "../../datasets/catalog.ts";
import { RELEASE_ID, releasesRoot } from "../../datasets/releases/layout.ts";
import { readManifest } from "../../datasets/releases/verify.ts";

export interface HeldFile {
  file: string;
  size: number;
}

export async function heldFiles(dataDir: string, dataset: DatasetName): Promise<Map<string, HeldFile>> {
  const root = releasesRoot(dataDir, dataset);
  const out = new Map<string, HeldFile>();
  const ids = (await fs.readdir(root).catch(() => [] as string[])).filter((n) => RELEASE_ID.test(n)).sort().reverse();
  for (const id of ids) {
    const dir = path.join(root, id);
    const manifest = await readManifest(dir, (p) => p, { dataset, id }).catch(() => undefined);
    for (const f of manifest?.files ?? []) {
      if (out.has(f.sha256)) continue;
      const size = (await fs.stat(path.join(dir, f.path)).catch(() => undefined))?.size;
      if (size === f.size) out.set(f.sha256, { file: path.join(dir, f.path), size });
    }
  }
  return out;
}

/** Hard-links `from` to `to` (a copy across file systems). Returns whether it linked. */
export async function linkOrCopy(from: string, to: string): Promise<boolean> {
  await fs.mkdir(path.dirname(to), { recursive: true });
  await fs.rm(to, { force: true });
  try {
    await fs.link(from, to);
    return true;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== "EXDEV" && (err as NodeJS.ErrnoException).code !== "EPERM") throw err;
    await fs.copyFile(from, to);
    return false;
  }
}
