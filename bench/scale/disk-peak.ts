/**
 * Peak disk use of a rehearsal: every 2 s, the space allocated to the files under each directory
 * (st_blocks, so sparse and hard-linked files count once per directory walk), until the process
 * `--pid` exits; then one JSON line with each directory's peak and the peak of their sum, in bytes.
 * A file reached twice through hard links counts once per sample.
 *
 *   npx tsx bench/scale/disk-peak.ts --pid PID DIR...
 */
import { promises as fs } from "node:fs";
import path from "node:path";

const args = process.argv.slice(2);
const pidAt = args.indexOf("--pid");
if (pidAt < 0 || args.length < pidAt + 3) throw new Error("usage: disk-peak.ts --pid PID DIR...");
const pid = Number(args[pidAt + 1]);
const dirs = args.filter((_, i) => i !== pidAt && i !== pidAt + 1).map((d) => path.resolve(d));

async function allocated(dir: string, seen: Set<string>): Promise<number> {
  let total = 0;
  let entries;
  try {
    entries = await fs.readdir(dir, { withFileTypes: true });
  } catch {
    return 0;
  }
  for (const e of entries) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) total += await allocated(p, seen);
    else if (e.isFile()) {
      const s = await fs.stat(p).catch(() => undefined);
      if (!s || seen.has(`${s.dev}:${s.ino}`)) continue;
      seen.add(`${s.dev}:${s.ino}`);
      total += s.blocks * 512;
    }
  }
  return total;
}

function alive(): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

const peaks = new Map<string, number>(dirs.map((d) => [d, 0]));
let peakSum = 0;
let peakAt = "";
const started = Date.now();
while (alive()) {
  const seen = new Set<string>();
  let sum = 0;
  for (const d of dirs) {
    const n = await allocated(d, seen);
    sum += n;
    if (n > peaks.get(d)!) peaks.set(d, n);
  }
  if (sum > peakSum) {
    peakSum = sum;
    peakAt = `${Math.round((Date.now() - started) / 1000)} s`;
  }
  await new Promise((r) => setTimeout(r, 2000));
}
process.stdout.write(JSON.stringify({ msg: "disk peak", peakSumBytes: peakSum, peakAt, peaks: Object.fromEntries(peaks) }) + "\n");
