/**
 * The embedded default's build fingerprint (pipeline/releases/build-fingerprint.ts) names files
 * by their path in the project and their content: a checkout copied or moved elsewhere computes
 * the same fingerprint for the same inputs (no rebuild), while another content or another file
 * changes it. Real inputs: the elevation step's embedded-default command line and files.
 */
import path from "node:path";
import { describe, expect, it } from "vitest";
import { DATASETS } from "../../../datasets/catalog.ts";
import { readConfig } from "../../../datasets/common/config.ts";
import { silentLogger } from "../../../datasets/common/log.ts";
import { PROJECT_ROOT } from "../../../datasets/common/paths.ts";
import { describeSourceFile } from "../../../datasets/artifact/source-info.ts";
import type { ReleaseSource } from "../../../datasets/releases/manifest.ts";
import { elevationStep } from "../../../pipeline/elevation/step.ts";
import { buildFingerprint, projectRelative } from "../../../pipeline/releases/build-fingerprint.ts";

const ELSEWHERE = path.join(path.sep, "srv", "copy-of-the-checkout");

/** Where `file` of this checkout lies in the copy at ELSEWHERE. */
const moved = (file: string) => path.join(ELSEWHERE, path.relative(PROJECT_ROOT, file));

describe("buildFingerprint", () => {
  it("is the same for a checkout copied elsewhere, and changes with an input's content or path", async () => {
    const ctx = { config: readConfig({}), logger: silentLogger };
    const args = elevationStep.embeddedDefault!.args(ctx);
    const files = elevationStep.embeddedDefault!.inputs(ctx);
    expect(args.some((a) => a.startsWith(PROJECT_ROOT))).toBe(true);
    const inputs: ReleaseSource[] = await Promise.all(files.map(async (f) => {
      const info = await describeSourceFile(f);
      return { url: info.location, size: info.bytes ?? 0, sha256: info.sha256 ?? "" };
    }));
    const spec = DATASETS.elevation;
    const base = { step: "elevation", codeVersion: elevationStep.codeVersion, code: "c0de", magic: spec.magic, formatVersion: spec.formatVersion };
    const here = buildFingerprint({ ...base, args, inputs, root: PROJECT_ROOT });
    // The copy: every absolute path under the other root, the same contents.
    const there = buildFingerprint({ ...base, args: args.map((a) => (a.startsWith(PROJECT_ROOT) ? moved(a) : a)), inputs: inputs.map((i) => ({ ...i, url: path.isAbsolute(i.url) ? moved(i.url) : i.url })), root: ELSEWHERE });
    expect(there).toBe(here);
    expect(here).toMatch(/^[0-9a-f]{64}$/);

    const otherContent = inputs.map((i, k) => (k === 0 ? { ...i, sha256: "0".repeat(64) } : i));
    expect(buildFingerprint({ ...base, args, inputs: otherContent, root: PROJECT_ROOT })).not.toBe(here);
    const otherFile = inputs.map((i, k) => (k === 0 ? { ...i, url: i.url.replace("etopo5", "etopo1") } : i));
    expect(buildFingerprint({ ...base, args, inputs: otherFile, root: PROJECT_ROOT })).not.toBe(here);
    expect(buildFingerprint({ ...base, formatVersion: spec.formatVersion + 1, args, inputs, root: PROJECT_ROOT })).not.toBe(here);
  });

  it("takes absolute paths inside the project relative to it, and leaves others as they are", () => {
    expect(projectRelative(path.join(PROJECT_ROOT, "datasets", "embedded", "dem", "etopo5.tif"), PROJECT_ROOT)).toBe("datasets/embedded/dem/etopo5.tif");
    expect(projectRelative("/var/cache/geodata/etopo5.tif", PROJECT_ROOT)).toBe("/var/cache/geodata/etopo5.tif");
    expect(projectRelative("--hgt", PROJECT_ROOT)).toBe("--hgt");
    expect(projectRelative("10", PROJECT_ROOT)).toBe("10");
  });
});
