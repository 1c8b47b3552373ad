// @ts-check
/**
 * An open-loop load generator for the HTTP bench's latency at a fixed offered rate: requests
 * leave on a fixed schedule whatever the answers do, and each latency is counted from the time
 * its request was due (not from when a busy client got round to it), so a stalled server shows
 * in the percentiles instead of slowing the generator down. Keep-alive connections, at most
 * MAX_CONNECTIONS at once.
 *
 *   node bench/fixed-rate.mjs <input.json>   (url, paths, key, encoding, seconds, rate)
 * Prints {"p50","p99","requests","non2xx","errors"} (milliseconds) on stdout.
 */
import http from "node:http";
import { readFileSync } from "node:fs";

const MAX_CONNECTIONS = 64;
/** The schedule is kept in ticks of this length, milliseconds. */
const TICK_MS = 5;

const o = JSON.parse(readFileSync(process.argv[2] ?? "", "utf8"));
const url = new URL(o.url);
const agent = new http.Agent({ keepAlive: true, maxSockets: MAX_CONNECTIONS });
const latencies = [];
let non2xx = 0;
let errors = 0;
let sent = 0;
let next = 0;
let pending = 0;

function send(dueAt) {
  const path = o.paths[next];
  next = (next + 1) % o.paths.length;
  sent++;
  pending++;
  const req = http.get({ host: url.hostname, port: url.port, path, agent, headers: { "X-Api-Key": o.key, "Accept-Encoding": o.encoding } }, (res) => {
    if (res.statusCode === undefined || res.statusCode >= 300) non2xx++;
    res.resume();
    res.on("end", () => {
      latencies.push(performance.now() - dueAt);
      pending--;
    });
  });
  req.on("error", () => {
    errors++;
    pending--;
  });
}

const start = performance.now();
const total = Math.round(o.rate * o.seconds);
await new Promise((resolve) => {
  const timer = setInterval(() => {
    const now = performance.now();
    // Every request due by now leaves now, each with its own due time.
    while (sent < total && start + (sent * 1000) / o.rate <= now) send(start + (sent * 1000) / o.rate);
    if (sent >= total) {
      clearInterval(timer);
      resolve(undefined);
    }
  }, TICK_MS);
});
const deadline = performance.now() + 10_000;
while (pending > 0 && performance.now() < deadline) await new Promise((r) => setTimeout(r, 10));
agent.destroy();
latencies.sort((a, b) => a - b);
const at = (q) => latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))] ?? NaN;
process.stdout.write(JSON.stringify({ p50: at(0.5), p99: at(0.99), requests: latencies.length, non2xx, errors: errors + pending }));
