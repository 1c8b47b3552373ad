/**
 * The nightly command line: its options (through the pipeline's one option parser), exit 2 for a
 * bad configuration, exit 1 (nothing done) while another run holds the lock.
 */
import { spawnSync } from "node:child_process";
import { promises as fs } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PROJECT_ROOT } from "../../../datasets/common/paths.ts";
import { parseNightlyArgs } from "../../../pipeline/nightly/command.ts";

let dir: string;
const cli = (args: string[]) =>
  spawnSync(process.execPath, [path.join(PROJECT_ROOT, "node_modules", "tsx", "dist", "cli.mjs"), path.join(PROJECT_ROOT, "pipeline", "cli.ts"), "nightly", ...args], {
    env: { ...process.env, GEODATA_DATA_DIR: dir, GEODATA_LOG_LEVEL: "info" },
    encoding: "utf8",
  });

beforeAll(async () => {
  dir = await fs.mkdtemp(path.join(os.tmpdir(), "geodata-nightly-cli-"));
});
afterAll(async () => {
  await fs.rm(dir, { recursive: true, force: true });
});

describe("parseNightlyArgs", () => {
  it("reads --config, --mirror, --only and --force, with the checked-in configuration by default", () => {
    expect(parseNightlyArgs([])).toEqual({ config: path.join(PROJECT_ROOT, "pipeline", "nightly.config.json"), mirror: undefined, only: undefined, force: false });
    expect(parseNightlyArgs(["--force", "--only", "places, stations", "--mirror", "http://m/", "--config", "c.json"])).toEqual({ config: "c.json", mirror: "http://m/", only: ["places", "stations"], force: true });
  });

  it("refuses an unknown option, a missing value and an unknown dataset, naming them", () => {
    expect(() => parseNightlyArgs(["--dry-run"])).toThrow('--dry-run: expected one of --config, --profile, --mirror, --only, --force, got "dry-run"');
    expect(() => parseNightlyArgs(["--config", "--force"])).toThrow('--config: expected a value, got "--force"');
    expect(() => parseNightlyArgs(["--only", "places,weather"])).toThrow(/^--only: expected dataset names among .*, got "weather"$/);
  });
});

describe("npm run nightly", () => {
  it("exits 2 naming the bad member of the configuration", async () => {
    await fs.writeFile(path.join(dir, "bad.json"), JSON.stringify({ datasets: { places: { sources: { countries: "https://h/c.txt" } } } }));
    const r = cli(["--config", path.join(dir, "bad.json")]);
    expect(r.status).toBe(2);
    expect(r.stderr).toContain("datasets.places.sources.admin1: expected a URL (required)");
  }, 60_000);

  it("exits 1 without building anything while a live process holds the lock", async () => {
    await fs.writeFile(path.join(dir, "ok.json"), JSON.stringify({ datasets: { stations: { sources: { noaa: "https://h/n.txt", wmo: "https://h/w.csv" } } } }));
    await fs.mkdir(path.join(dir, "releases"), { recursive: true });
    await fs.writeFile(path.join(dir, "releases", ".nightly.lock"), JSON.stringify({ pid: process.pid }));
    const r = cli(["--config", path.join(dir, "ok.json")]);
    expect(r.status).toBe(1);
    expect(r.stderr).toContain("another process holds");
    expect(r.stdout).toBe("");
    expect(await fs.readdir(path.join(dir, "releases"))).toEqual([".nightly.lock"]);
  }, 60_000);
});
