/**
 * A local upstream mirror for nightly tests: node:http serving real files (the committed
 * embedded copies, decompressed where the upstream serves them plain) at their upstream paths
 * (`/<host>/<path>`, the --mirror layout), with ETag / Last-Modified, 304 on a matching
 * conditional request, Range (206), and faults a test switches on per path. Every request is
 * recorded with the bytes of file content it was sent, for tests that compare a client's count.
 */
import { createHash } from "node:crypto";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";

export type Fault =
  /** Sends the headers and half the body, then destroys the socket. */
  | "drop-mid-body"
  /** Answers 500 (a server fault). */
  | "status-500";

export interface MirrorFile {
  body: Buffer;
  /** Changes the ETag and Last-Modified when the body changes. */
  lastModified: Date;
}

export interface RequestRecord {
  path: string;
  status: number;
  range?: string;
  conditional: boolean;
  /** Bytes of the file's content written to the socket (HEAD, 304 and error answers: 0). */
  bytes: number;
}

export class UpstreamMirror {
  readonly files = new Map<string, MirrorFile>();
  /** Faults to apply to the next requests of a path, in order (each used once). */
  readonly faults = new Map<string, Fault[]>();
  readonly requests: RequestRecord[] = [];
  private server: Server | undefined;
  baseUrl = "";

  /** Serves `body` at `/<host>/<path>` (e.g. `download.geonames.org/export/dump/cities15000.zip`). */
  put(pathName: string, body: Buffer, lastModified = new Date(Date.UTC(2026, 10, 1))): void {
    this.files.set("/" + pathName.replace(/^\/+/, ""), { body, lastModified });
  }

  fault(pathName: string, ...faults: Fault[]): void {
    this.faults.set("/" + pathName.replace(/^\/+/, ""), faults);
  }

  static etagOf(body: Buffer): string {
    return `"${createHash("sha256").update(body).digest("hex").slice(0, 16)}"`;
  }

  async start(): Promise<string> {
    this.server = createServer((req, res) => {
      const url = new URL(req.url ?? "/", "http://mirror");
      const key = decodeURIComponent(url.pathname);
      const file = this.files.get(key);
      const record = (status: number, bytes = 0): void => {
        this.requests.push({ path: key, status, conditional: req.headers["if-none-match"] !== undefined || req.headers["if-modified-since"] !== undefined, ...(req.headers.range ? { range: req.headers.range } : {}), bytes });
      };
      if (!file) {
        record(404);
        res.writeHead(404).end("not found");
        return;
      }
      const fault = this.faults.get(key)?.shift();
      if (fault === "status-500") {
        record(500);
        res.writeHead(500).end("internal error");
        return;
      }
      const etag = UpstreamMirror.etagOf(file.body);
      const lastModified = file.lastModified.toUTCString();
      const notModified = req.headers["if-none-match"] === etag || (req.headers["if-none-match"] === undefined && req.headers["if-modified-since"] === lastModified);
      if (notModified) {
        record(304);
        res.writeHead(304, { ETag: etag, "Last-Modified": lastModified }).end();
        return;
      }
      let start = 0;
      const range = /^bytes=(\d+)-$/.exec(req.headers.range ?? "");
      const ifRange = req.headers["if-range"];
      if (range && (ifRange === undefined || ifRange === etag || ifRange === lastModified) && Number(range[1]) < file.body.length) start = Number(range[1]);
      const body = file.body.subarray(start);
      const headers: Record<string, string> = { ETag: etag, "Last-Modified": lastModified, "Content-Length": String(body.length), "Accept-Ranges": "bytes" };
      if (start > 0) headers["Content-Range"] = `bytes ${start}-${file.body.length - 1}/${file.body.length}`;
      const status = start > 0 ? 206 : 200;
      // Node sends no body to a HEAD request, whatever is written.
      const sent = req.method === "HEAD" ? 0 : fault === "drop-mid-body" ? Math.floor(body.length / 2) : body.length;
      record(status, sent);
      res.writeHead(status, headers);
      if (fault === "drop-mid-body") {
        res.write(body.subarray(0, Math.floor(body.length / 2)), () => res.destroy());
        return;
      }
      res.end(body);
    });
    await new Promise<void>((resolve) => this.server!.listen(0, "127.0.0.1", resolve));
    this.baseUrl = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
    return this.baseUrl;
  }

  async stop(): Promise<void> {
    await new Promise<void>((resolve) => {
      this.server?.closeAllConnections();
      this.server?.close(() => resolve());
    });
  }
}
