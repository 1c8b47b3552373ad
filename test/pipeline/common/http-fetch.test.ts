/**
 * fetchWithValidators against a local node:http server: the response's validators come back with
 * the body, and every byte received is reported (onBytes), also when the server ignores Range and
 * sends the whole file, of which only the range is returned.
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { readFile } from "node:fs/promises";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PROJECT_ROOT } from "../../../datasets/common/paths.ts";
import { fetchWithValidators } from "../../../pipeline/common/http-fetch.ts";

/** A real file to serve: the GFS 0.25 APCP message of the forecast fixtures. */
const FILE = path.join(PROJECT_ROOT, "test", "fixtures", "forecast", "nomads", "gfs.20200325", "18", "atmos", "gfs.t18z.pgrb2.0p25.f006");
const ETAG = '"apcp-f006"';
const LAST_MODIFIED = "Wed, 25 Mar 2020 21:30:00 GMT";

let body: Buffer;
let server: Server;
let base: string;

beforeAll(async () => {
  body = await readFile(FILE);
  // Answers every GET with the whole file and 200, whatever Range asked (as some servers do).
  server = createServer((_req, res) => {
    res.writeHead(200, { "Content-Length": String(body.length), ETag: ETAG, "Last-Modified": LAST_MODIFIED }).end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
});

describe("fetchWithValidators", () => {
  it("returns the validators with the body", async () => {
    let received = 0;
    const got = await fetchWithValidators(`${base}/f006`, { onBytes: (n) => void (received += n) });
    expect(got.body.equals(body)).toBe(true);
    expect(got.validators).toEqual({ etag: ETAG, lastModified: LAST_MODIFIED });
    expect(received).toBe(body.length);
  });

  it("counts the whole body a server sent in place of a range, and returns the range", async () => {
    let received = 0;
    const got = await fetchWithValidators(`${base}/f006`, { range: { first: 100, last: 199 }, onBytes: (n) => void (received += n) });
    expect(got.body.equals(body.subarray(100, 200))).toBe(true);
    expect(received).toBe(body.length);
  });
});
