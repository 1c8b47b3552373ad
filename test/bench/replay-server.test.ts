/**
 * The HTTP bench's replay server (bench/replay-server.ts) sends the real server's answers byte
 * for byte: status, header lines and body in the coding captured, in turn.
 */
import http from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { captureAnswers, startReplay, type CapturedAnswer } from "../../bench/replay-server.ts";
import { ensureDefaultData } from "../helpers/default-data.ts";
import { startTestServer, TEST_KEY, type TestServer } from "../helpers/server.ts";

/** One raw answer: status, header lines without node's own, body bytes as sent. */
function rawGet(port: number, target: string, headers: Record<string, string>): Promise<CapturedAnswer> {
  return new Promise((resolve, reject) => {
    http.get({ host: "127.0.0.1", port, path: target, headers, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (c: Buffer) => chunks.push(c));
      res.on("end", () => {
        const lines: [string, string][] = [];
        for (let k = 0; k < res.rawHeaders.length; k += 2) lines.push([res.rawHeaders[k]!, res.rawHeaders[k + 1]!]);
        resolve({ status: res.statusCode ?? 0, headers: lines, body: Buffer.concat(chunks) });
      });
    }).on("error", reject);
  });
}

describe("replay server", () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ dataDir: await ensureDefaultData(["elevation"]), now: () => new Date("2026-11-23T21:00:00Z") });
  }, 600_000);
  afterAll(async () => {
    await server?.close();
  });

  it("answers with the captured answers in turn, the same status, header lines and bytes", async () => {
    const port = Number(new URL(server.baseUrl).port);
    const targets = ["/elevation/point/2/json?lat=46.5&lon=8.0", "/elevation/point/2/json?lat=91&lon=0", "/openapi.json"];
    const headers = { "X-Api-Key": TEST_KEY, "Accept-Encoding": "gzip" };
    const captured = await captureAnswers(port, targets, headers);
    expect(captured.map((a) => a.status)).toEqual([200, 400, 200]);
    const replay = await startReplay(captured);
    try {
      // Whatever is asked for, the next captured answer comes back: three, then the first again.
      for (const k of [0, 1, 2, 0]) {
        const direct = await rawGet(port, targets[k]!, headers);
        const replayed = await rawGet(replay.port, "/anything", {});
        expect(replayed.status).toBe(direct.status);
        expect(replayed.body.equals(direct.body), targets[k]).toBe(true);
        const withoutNodes = (a: CapturedAnswer) => a.headers.filter(([name]) => !["date", "connection", "keep-alive"].includes(name.toLowerCase()));
        expect(withoutNodes(replayed)).toEqual(withoutNodes(direct));
      }
      // /openapi.json in gzip: the compressed bytes are replayed, not decoded.
      expect(captured[2]!.headers).toContainEqual(["Content-Encoding", "gzip"]);
    } finally {
      await replay.stop();
    }
  });

  it("refuses an empty list of answers", async () => {
    await expect(startReplay([])).rejects.toThrow("expected at least 1, got 0");
  });
});
