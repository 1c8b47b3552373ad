/**
 * Loader of the `admin` dataset: reads admin/admin.idx once at startup, checks envelope, checksum
 * and structure, and keeps the typed arrays as views into the file's buffer (no copy).
 */
import { promises as fs } from "node:fs";
import type { AdminIndex } from "../../datasets/admin/admin-index.ts";
import { openAdminIndexWork } from "../../datasets/admin/admin-file.ts";
import { finishInSlices } from "../../datasets/common/work.ts";
import { MissingInputError } from "../../datasets/common/errors.ts";
import type { DatasetLoader } from "../datasets/loader.ts";

export const loadAdmin: DatasetLoader<AdminIndex> = async (ctx) => {
  let bytes: Buffer;
  try {
    bytes = await fs.readFile(ctx.file);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "ENOENT") throw new MissingInputError(ctx.file, "artifact 'admin'");
    throw err;
  }
  // In slices: a server opening a new release keeps answering meanwhile.
  const { index, metadata } = await finishInSlices(openAdminIndexWork(bytes, ctx.file));
  const d = index.data;
  return {
    value: index,
    metadata,
    facts: {
      h3Resolution: d.layout.res,
      slots: d.slotWord.length,
      boundaryRecords: d.boundaryGeom.length / 6,
      adminFeatures: d.attributes.iso2.length,
      timezones: d.attributes.tzid.length,
      bytes: bytes.byteLength,
    },
  };
};
