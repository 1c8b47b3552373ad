/**
 * The ceiling of the HTTP bench's ratio for a mix: a bare node:http server that answers every
 * request with the real server's answers to that mix, captured before and sent in turn, byte for
 * byte (status, header lines and body in the coding asked for). It does no application work, so
 * what it costs per request is node:http's, the kernel's and, on the client's side, autocannon's
 * for exactly those bytes.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { promises as fs } from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";

export interface CapturedAnswer {
  status: number;
  /** Header lines as received, without those node:http adds itself (Date, Connection, Keep-Alive). */
  headers: [string, string][];
  /** The body as sent (compressed when the coding asked for says so). */
  body: Buffer;
}

/** Headers node:http writes on its own on every answer: the replay server's node adds them again. */
const ADDED_BY_NODE = new Set(["date", "connection", "keep-alive"]);

/** The server's answers to `paths`, one request at a time, with `headers`. */
export async function captureAnswers(port: number, paths: readonly string[], headers: Record<string, string>): Promise<CapturedAnswer[]> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  try {
    const out: CapturedAnswer[] = [];
    for (const p of paths) {
      out.push(
        await new Promise<CapturedAnswer>((resolve, reject) => {
          http.get({ host: "127.0.0.1", port, path: p, headers, agent }, (res) => {
            const chunks: Buffer[] = [];
            res.on("data", (c: Buffer) => chunks.push(c));
            res.on("end", () => {
              const lines: [string, string][] = [];
              for (let k = 0; k < res.rawHeaders.length; k += 2) {
                const name = res.rawHeaders[k]!;
                if (!ADDED_BY_NODE.has(name.toLowerCase())) lines.push([name, res.rawHeaders[k + 1]!]);
              }
              resolve({ status: res.statusCode ?? 0, headers: lines, body: Buffer.concat(chunks) });
            });
            res.on("error", reject);
          }).on("error", reject);
        }),
      );
    }
    return out;
  } finally {
    agent.destroy();
  }
}

/** The replay server: reads the answers from a file, answers each request with the next one. */
const REPLAY_SERVER = `
const http = require("node:http");
const answers = JSON.parse(require("node:fs").readFileSync(process.argv[1], "utf8")).map((a) => ({
  status: a.status, headers: Object.fromEntries(a.headers), body: Buffer.from(a.body, "base64"),
}));
let next = 0;
const server = http.createServer((req, res) => {
  const a = answers[next++ % answers.length];
  res.writeHead(a.status, a.headers);
  res.end(a.body);
});
server.listen(0, "127.0.0.1", () => process.stdout.write(server.address().port + "\\n"));
process.on("SIGTERM", () => server.close(() => process.exit(0)));
`;

/**
 * A server given as a script (`node -e`) that listens on a free port and prints the port on its
 * first line of output; `name` is for the error when it exits first.
 */
export async function startScriptServer(name: string, script: string, args: readonly string[] = []): Promise<{ child: ChildProcess; port: number }> {
  const child = spawn(process.execPath, ["-e", script, ...args], { stdio: ["ignore", "pipe", "inherit"] });
  const port = await new Promise<number>((resolve, reject) => {
    child.stdout!.once("data", (d: Buffer) => resolve(Number(d.toString().trim())));
    child.once("exit", (code) => reject(new Error(`${name} exited (${code})`)));
  });
  return { child, port };
}

export interface ReplayServer {
  child: ChildProcess;
  port: number;
  stop(): Promise<void>;
}

export async function startReplay(answers: readonly CapturedAnswer[]): Promise<ReplayServer> {
  if (answers.length === 0) throw new Error("replay server: no answers to replay (expected at least 1, got 0)");
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), "geodata-replay-"));
  const file = path.join(dir, "answers.json");
  await fs.writeFile(file, JSON.stringify(answers.map((a) => ({ status: a.status, headers: a.headers, body: a.body.toString("base64") }))));
  const { child, port } = await startScriptServer("replay server", REPLAY_SERVER, [file]);
  return {
    child,
    port,
    async stop() {
      if (child.exitCode === null) {
        const exited = new Promise((r) => child.once("exit", r));
        child.kill("SIGTERM");
        await exited;
      }
      await fs.rm(dir, { recursive: true, force: true });
    },
  };
}
