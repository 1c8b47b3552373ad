/**
 * Tests on the shared data (`../shared/data`, on our machines only; a fresh clone runs the
 * committed fixtures instead). `needsSharedData(paths)` gives a `describe` and an `it` that run
 * when every named path under it is there (and every named command runs) and otherwise skip,
 * printing one line that names what is skipped and what is missing.
 */
import { execFileSync } from "node:child_process";
import { existsSync } from "node:fs";
import path from "node:path";
import { describe, it } from "vitest";
import { PROJECT_ROOT, SHARED_DATA_DIR } from "../../datasets/common/paths.ts";

export interface SharedData {
  /** Every named path is there and every named command runs. */
  readonly present: boolean;
  /** What is missing, for the skip line; empty when present. */
  readonly missing: readonly string[];
  /** A path under the shared data directory. */
  path(...parts: string[]): string;
  describe(name: string, fn: () => void): void;
  it(name: string, fn: () => unknown, timeoutMs?: number): void;
}

function commandRuns(command: string): boolean {
  try {
    execFileSync(command, ["--version"], { stdio: "ignore" });
    return true;
  } catch {
    return false;
  }
}

/** `paths` are relative to the shared data directory; `commands` are tools the tests run on it. */
export function needsSharedData(paths: readonly string[], options: { commands?: readonly string[] } = {}): SharedData {
  const missing = [
    ...paths.map((p) => path.join(SHARED_DATA_DIR, p)).filter((p) => !existsSync(p)).map((p) => path.relative(PROJECT_ROOT, p)),
    ...(options.commands ?? []).filter((c) => !commandRuns(c)).map((c) => `the command ${c}`),
  ];
  const skipped = (name: string): void => {
    console.warn(`skipped "${name}": missing ${missing.join(", ")} (the shared data is on our machines only)`);
  };
  return {
    present: missing.length === 0,
    missing,
    path: (...parts) => path.join(SHARED_DATA_DIR, ...parts),
    describe(name, fn) {
      if (missing.length === 0) describe(name, fn);
      else {
        skipped(name);
        describe.skip(name, fn);
      }
    },
    it(name, fn, timeoutMs) {
      if (missing.length === 0) it(name, fn, timeoutMs);
      else {
        skipped(name);
        it.skip(name, fn);
      }
    },
  };
}
