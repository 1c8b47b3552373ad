/**
 * Loader of the `admin` dataset: opens admin/admin.idx where it lies (the envelope's header and
 * the index's small tables; datasets/admin/admin-file.ts). Lookups read the rest through the page
 * cache, so every worker on the machine shares the one copy the kernel keeps.
 */
import { statSync } from "node:fs";
import type { AdminIndex } from "../../datasets/admin/admin-index.ts";
import { openAdminFile } from "../../datasets/admin/admin-file.ts";
import type { DatasetLoader } from "../datasets/loader.ts";

export const loadAdmin: DatasetLoader<AdminIndex> = async (ctx) => {
  const { index, metadata } = openAdminFile(ctx.file);
  const counts = metadata.counts;
  return {
    value: index,
    metadata,
    facts: {
      h3Resolution: index.res,
      slots: index.grid.slotCount,
      boundaryRecords: counts.boundarySlots,
      adminFeatures: index.attributes.iso2.length,
      timezones: index.attributes.tzid.length,
      bytes: statSync(ctx.file).size,
    },
    close: () => index.close(),
  };
};
