/**
 * A static upstream mirror for the scale rehearsals: node:http serving a directory laid out as
 * `<host>/<path>` (the nightly's `--mirror BASE` layout) with HEAD, GET and single byte ranges
 * (`Range: bytes=first-[last]`, 206), as NOMADS serves its GRIB files. Prints one JSON line with
 * its base URL, then serves until killed.
 *
 *   npx tsx bench/scale/serve-mirror.ts DIR [PORT]
 */
import { createReadStream, promises as fs } from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";

const [dirArg, portArg] = process.argv.slice(2);
if (!dirArg) throw new Error("usage: serve-mirror.ts DIR [PORT]");
const root = path.resolve(dirArg);
let requests = 0;

const server = createServer((req, res) => {
  requests++;
  void (async () => {
    const pathname = decodeURIComponent(new URL(req.url ?? "/", "http://mirror").pathname);
    const file = path.join(root, path.normalize(pathname));
    if (!file.startsWith(root + path.sep)) return void res.writeHead(403).end();
    const stat = await fs.stat(file).catch(() => undefined);
    if (!stat?.isFile()) return void res.writeHead(404).end("not found");
    const range = /^bytes=(\d+)-(\d*)$/.exec(req.headers.range ?? "");
    let first = 0;
    let last = stat.size - 1;
    if (range) {
      first = Number(range[1]);
      if (range[2]) last = Math.min(last, Number(range[2]));
      if (first > last) return void res.writeHead(416, { "Content-Range": `bytes */${stat.size}` }).end();
    }
    const headers: Record<string, string | number> = { "Content-Length": last - first + 1, "Last-Modified": stat.mtime.toUTCString(), "Accept-Ranges": "bytes" };
    if (range) headers["Content-Range"] = `bytes ${first}-${last}/${stat.size}`;
    res.writeHead(range ? 206 : 200, headers);
    if (req.method === "HEAD") return void res.end();
    createReadStream(file, { start: first, end: last }).pipe(res);
  })().catch((err: unknown) => {
    process.stderr.write(JSON.stringify({ level: "error", msg: "mirror request failed", url: req.url, error: String(err) }) + "\n");
    if (!res.headersSent) res.writeHead(500);
    res.end();
  });
});

server.listen(Number(portArg ?? 0), "127.0.0.1", () => {
  const { port } = server.address() as AddressInfo;
  process.stdout.write(JSON.stringify({ msg: "mirror serving", root, base: `http://127.0.0.1:${port}` }) + "\n");
});
process.on("SIGTERM", () => {
  process.stdout.write(JSON.stringify({ msg: "mirror stopped", requests }) + "\n");
  server.close();
  process.exit(0);
});
