import { createHash } from "node:crypto";
import { createReadStream, promises as fs } from "node:fs";
import path from "node:path";
import { PROJECT_ROOT } from "../common/paths.ts";
import type { SourceInfo } from "./envelope.ts";

/** SHA-256 of a file, streamed. */
export async function sha256File(file: string): Promise<string> {
  const hash = createHash("sha256");
  for await (const chunk of createReadStream(file)) hash.update(chunk as Buffer);
  return hash.digest("hex");
}

/** Describes a local source file for an artifact's metadata (location relative to the project when inside it). */
export async function describeSourceFile(file: string, name?: string, date?: string): Promise<SourceInfo> {
  const abs = path.resolve(file);
  const stat = await fs.stat(abs);
  const rel = path.relative(PROJECT_ROOT, abs);
  const location = rel.startsWith("..") || path.isAbsolute(rel) ? abs : rel.split(path.sep).join("/");
  const info: SourceInfo = { name: name ?? path.basename(abs), location, bytes: stat.size, sha256: await sha256File(abs) };
  if (date !== undefined) info.date = date;
  return info;
}
