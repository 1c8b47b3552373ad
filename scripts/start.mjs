// @ts-check
/**
 * `npm start`: compiles to dist/ when the sources changed (scripts/build.mjs), then runs the
 * compiled server/start.js in this process: plain node, no transpiler at runtime.
 */
import { existsSync } from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { DIST, ensureBuilt } from "./build.mjs";

const log = (/** @type {string} */ level, /** @type {string} */ msg, /** @type {object} */ extra = {}) =>
  process.stderr.write(JSON.stringify({ time: new Date().toISOString(), level, component: "start", msg, ...extra }) + "\n");

const result = ensureBuilt();
if (result.built) log(result.ok ? "info" : "warn", result.ok ? "compiled to dist/" : "compiled to dist/ with type errors", { ms: Math.round(result.ms) });
const entry = path.join(DIST, "server", "start.js");
if (!existsSync(entry)) {
  log("error", "no compiled server: the build failed", { expected: "dist/server/start.js" });
  process.exit(1);
}
await import(pathToFileURL(entry).href);
