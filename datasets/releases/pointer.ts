/**
 * The pointer file `releases/<dataset>/current.txt`: the id of the published release and a line
 * feed, nothing else, so that any static HTTP server or object store can serve it and an operator
 * can write it by hand. It is replaced by writing a temporary file beside it and renaming it over
 * (one `rename(2)`): a reader sees the old id or the new one, never a partial line.
 */
import { randomBytes } from "node:crypto";
import { promises as fs } from "node:fs";
import path from "node:path";
import { DataFormatError } from "../common/errors.ts";
import { RELEASE_ID } from "./layout.ts";

/** Parses the pointer's text; `shown` names it in errors (a path relative to the data directory, or a URL). */
export function parsePointer(text: string, shown: string): string {
  const id = text.trim();
  if (!RELEASE_ID.test(id) || text.length > 64) {
    throw new DataFormatError({ file: shown }, "a release id such as 20261123T020000Z and a line feed", JSON.stringify(text.slice(0, 64)));
  }
  return id;
}

export function encodePointer(id: string): string {
  if (!RELEASE_ID.test(id)) throw new DataFormatError({ field: "release id" }, "an id such as 20261123T020000Z", JSON.stringify(id));
  return `${id}\n`;
}

/** The id the pointer file names; undefined when there is no pointer file. Throws when it holds something else. */
export async function readPointer(file: string, shown: string): Promise<string | undefined> {
  let text: string;
  try {
    text = await fs.readFile(file, "utf8");
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw err;
  }
  return parsePointer(text, shown);
}

/**
 * Points `file` at release `id` (temporary file, fsync, rename), then points the legacy link
 * `current` beside it at the same release for older readers (a new link renamed over the old).
 */
export async function writePointer(file: string, id: string, legacyLink: string): Promise<void> {
  const suffix = `.tmp-${process.pid}-${randomBytes(4).toString("hex")}`;
  const tmp = `${file}${suffix}`;
  const handle = await fs.open(tmp, "w");
  try {
    await handle.writeFile(encodePointer(id));
    await handle.sync();
  } finally {
    await handle.close();
  }
  await fs.rename(tmp, file);
  const link = path.join(path.dirname(legacyLink), `.${path.basename(legacyLink)}${suffix}`);
  await fs.symlink(id, link);
  await fs.rename(link, legacyLink);
}
