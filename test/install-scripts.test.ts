/**
 * No install step reports to a third party. Every package of package-lock.json that runs an install
 * script must be listed here with what its script does; a package known to report installs must
 * come with its documented opt-out in package.json. And the installed reporter itself, run the way
 * npm runs it but pointed at a local listener (SCARF_LOCAL_PORT), must send nothing.
 */
import { spawn } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { PROJECT_ROOT } from "../datasets/common/paths.ts";

interface LockEntry {
  version?: string;
  hasInstallScript?: boolean;
}

interface RootPackage {
  scarfSettings?: { enabled?: boolean };
  allowScripts?: Record<string, boolean>;
}

/** Packages whose install script is known and why it may run, or the opt-out it needs. */
const KNOWN_INSTALL_SCRIPTS: Record<string, { does: string; reportsInstalls: boolean }> = {
  // Brought by swagger-ui-dist (the docs page). Its postinstall posts the dependency chain, the
  // platform and the Node version to scarf.sh unless the root package.json opts out.
  "@scarf/scarf": { does: "reports the install to scarf.sh", reportsInstalls: true },
  // Checks that the platform's binary package is there, else fetches it from the npm registry.
  esbuild: { does: "verifies its platform binary", reportsInstalls: false },
};

const lock = JSON.parse(readFileSync(path.join(PROJECT_ROOT, "package-lock.json"), "utf8")) as { packages: Record<string, LockEntry> };
const rootPackage = JSON.parse(readFileSync(path.join(PROJECT_ROOT, "package.json"), "utf8")) as RootPackage;

/** The package name of a lock key ("node_modules/a/node_modules/@b/c" is "@b/c"). */
const nameOf = (key: string): string => key.slice(key.lastIndexOf("node_modules/") + "node_modules/".length);

/** What the opt-out of each reporter is: Scarf's documented `scarfSettings.enabled: false`, and npm's own denial. */
function optedOut(name: string, root: RootPackage): boolean {
  if (name === "@scarf/scarf") return root.scarfSettings?.enabled === false && root.allowScripts?.["@scarf/scarf"] === false;
  return false;
}

describe("install scripts", () => {
  const withScripts = Object.entries(lock.packages)
    .filter(([key, entry]) => key !== "" && entry.hasInstallScript === true)
    .map(([key]) => nameOf(key));

  it("are all known (a new one must be read and listed here)", () => {
    expect(withScripts.filter((name) => KNOWN_INSTALL_SCRIPTS[name] === undefined)).toEqual([]);
  });

  it("that report installs are opted out of in package.json", () => {
    const reporters = withScripts.filter((name) => KNOWN_INSTALL_SCRIPTS[name]?.reportsInstalls === true);
    expect(reporters.filter((name) => !optedOut(name, rootPackage))).toEqual([]);
  });

  it("the opt-out check fails on a package.json without it", () => {
    expect(optedOut("@scarf/scarf", {})).toBe(false);
    expect(optedOut("@scarf/scarf", { scarfSettings: { enabled: true }, allowScripts: { "@scarf/scarf": false } })).toBe(false);
    expect(optedOut("@scarf/scarf", { scarfSettings: { enabled: false } })).toBe(false);
  });

  const reporter = path.join(PROJECT_ROOT, "node_modules", "@scarf", "scarf", "report.js");
  it.skipIf(!existsSync(reporter))("Scarf's postinstall, run as npm runs it, sends nothing", async () => {
    const received: string[] = [];
    const listener = http.createServer((req, res) => {
      received.push(`${req.method} ${req.url}`);
      res.end();
    });
    await new Promise<void>((resolve) => listener.listen(0, "127.0.0.1", resolve));
    try {
      const env: NodeJS.ProcessEnv = { ...process.env, INIT_CWD: PROJECT_ROOT, SCARF_LOCAL_PORT: String((listener.address() as AddressInfo).port), SCARF_VERBOSE: "true" };
      // The user-level opt-outs would hide a missing opt-out in package.json.
      for (const name of ["SCARF_ANALYTICS", "SCARF_NO_ANALYTICS", "DO_NOT_TRACK"]) delete env[name];
      const output = await new Promise<string>((resolve, reject) => {
        const child = spawn(process.execPath, [reporter], { cwd: path.dirname(reporter), env, stdio: ["ignore", "pipe", "pipe"] });
        let text = "";
        child.stdout.on("data", (d: Buffer) => (text += d.toString()));
        child.stderr.on("data", (d: Buffer) => (text += d.toString()));
        child.on("error", reject);
        child.on("close", () => resolve(text)); // "close": after the last of its output
      });
      expect(received).toEqual([]);
      // It stopped because of the opt-out, not for want of npm or a dependency tree.
      expect(output).toMatch(/disabled via a package\.json|opted out/);
    } finally {
      listener.close();
    }
  }, 30_000);
});
