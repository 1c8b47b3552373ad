/**
 * `npm run pipeline -- grib-inspect FILE [--message N [--json]]`: lists a GRIB file's fields, one
 * line each, or prints one field's description and decoded values as JSON, so that anyone can
 * compare our decoding with ecCodes or wgrib2. Reads local files (plain or .gz) and URLs.
 */
import path from "node:path";
import { ConfigError } from "../../datasets/common/errors.ts";
import { readSource } from "../common/source.ts";
import type { PipelineStep } from "../common/step.ts";
import { StepOptions } from "../common/options.ts";
import { gridCoordinates } from "./coordinates.ts";
import { decodeField } from "./decode.ts";
import { fieldDescription, fieldJsonChunks, inventoryLine } from "./inventory.ts";
import { scanGrib } from "./scan.ts";

const USAGE = `Usage: npm run pipeline -- grib-inspect FILE [--message N] [--json]

  FILE           a GRIB1 or GRIB2 file (local path, .gz, or http(s) URL)
  --message N    only field N (1-based, as listed)
  --json         with --message: the field's description and values as JSON (missing = null);
                 without --message: every field's description as JSON lines
  --coordinates  with --message N --json: also "latitudes" and "longitudes" of every point`;

interface InspectArgs {
  file: string;
  message?: number;
  json: boolean;
  coordinates: boolean;
}

export function parseInspectArgs(args: string[]): InspectArgs {
  const o = new StepOptions("grib-inspect", args, { values: ["message"], flags: ["json", "coordinates"], positional: true });
  if (o.positional.length === 0) throw new ConfigError("FILE", "a GRIB file to inspect", "nothing");
  if (o.positional.length > 1) throw new ConfigError("FILE", "one GRIB file", o.positional.join(" "));
  const raw = o.get("message");
  if (raw !== undefined && !/^[1-9]\d*$/.test(raw)) throw new ConfigError("--message", "a field number from 1", raw);
  const message = raw === undefined ? undefined : Number(raw);
  const json = o.flag("json");
  const coordinates = o.flag("coordinates");
  if (coordinates && (!json || message === undefined)) throw new ConfigError("--coordinates", "used with --message N --json", args.join(" "));
  return { file: o.positional[0]!, json, coordinates, ...(message !== undefined ? { message } : {}) };
}

/** Writes to stdout and waits for the stream when it is full (large --json outputs). */
async function write(text: string): Promise<void> {
  if (!process.stdout.write(text)) await new Promise<void>((resolve) => process.stdout.once("drain", () => resolve()));
}

export const gribInspectStep: PipelineStep = {
  name: "grib-inspect",
  summary: "List the fields of a GRIB1/GRIB2 file, or print one field's grid and values as JSON.",
  usage: USAGE,
  codeVersion: 1,
  async run(args, ctx) {
    const options = parseInspectArgs(args);
    const bytes = new Uint8Array(await readSource(options.file, { cacheDir: path.join(ctx.config.dataDir, ".cache", "downloads"), logger: ctx.logger }));
    const name = path.basename(options.file);
    const fields = scanGrib(bytes, name, options.message !== undefined ? { limit: options.message } : {});
    if (options.message !== undefined) {
      const field = fields[options.message - 1];
      if (!field) throw new ConfigError("--message", `a field number from 1 to ${fields.length}`, String(options.message));
      if (!options.json) {
        await write(inventoryLine(field) + "\n");
        return;
      }
      const values = decodeField(bytes, field, name);
      const coords = options.coordinates ? gridCoordinates(field, name) : undefined;
      for (const chunk of fieldJsonChunks(field, values, coords)) await write(chunk);
      return;
    }
    for (const field of fields) await write((options.json ? JSON.stringify(fieldDescription(field)) : inventoryLine(field)) + "\n");
    ctx.logger.info("inspected", { file: name, fields: fields.length, bytes: bytes.length });
  },
};
