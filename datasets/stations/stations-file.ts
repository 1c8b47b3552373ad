/**
 * The `stations/stations.idx` artifact: the common envelope (magic and version of the catalog's
 * stations entry) around named typed-array sections (datasets/admin/sections.ts): the string
 * table, one id directory per family, the series blocks, each family's answers (the JSON text of
 * every reporting station's answer), the located stations. `encodeStationsPayload` is the
 * writer's half; `openStationsFile` the reader's: it checks the header and the small sections and
 * keeps them resident; a lookup reads one series block or one answer where it lies. Byte layout:
 * FORMAT.md.
 */
import { openArtifactFile, type BuildMetadata } from "../artifact/envelope.ts";
import type { ByteSource } from "../common/byte-source.ts";
import { DATASETS } from "../catalog.ts";
import { DataFormatError } from "../common/errors.ts";
import { encodeSections, SectionTable, type SectionEntry } from "../admin/sections.ts";
import { LocatedStations, type LocatedSections } from "./located-stations.ts";
import type { ObservationKind } from "./record.ts";
import { StationDirectory } from "./station-directory.ts";

export const STATIONS_SPEC = DATASETS.stations;

export const KINDS: readonly ObservationKind[] = ["METAR", "SYNOP"];

/** Everything the file holds, in the pipeline's memory. */
export interface StationsIndexContent {
  /** The string table: the wids the series blocks index. */
  strings: readonly string[];
  directories: Record<ObservationKind, { ids: Uint8Array; entries: Uint32Array; answerEntries: Uint32Array }>;
  /** The series blocks, one after the other (series.ts). */
  series: Uint8Array;
  /** Per family, the answers' JSON texts (observations-json.ts), UTF-8, in the order of their offsets. */
  answers: Record<ObservationKind, readonly Uint8Array[]>;
  located: LocatedSections;
}

/** Payload chunks and the table of contents (for the metadata's `extra.sections`). */
export function encodeStationsPayload(c: StationsIndexContent): { chunks: Uint8Array[]; toc: SectionEntry[] } {
  return encodeSections([
    ["strings", new Uint8Array(Buffer.from(JSON.stringify(c.strings), "utf8"))],
    ...KINDS.flatMap((k) => [[`${k}.ids`, c.directories[k].ids], [`${k}.entries`, c.directories[k].entries], [`${k}.answerEntries`, c.directories[k].answerEntries]] as const),
    ["series", c.series],
    ...KINDS.map((k) => [`${k}.answers`, c.answers[k]] as const),
    ["located.cells", c.located.cells],
    ["located.cellStart", c.located.cellStart],
    ["located.lat", c.located.lat],
    ["located.lon", c.located.lon],
    ["located.elevation", c.located.elevation],
    ["located.ref", c.located.ref],
  ]);
}

/** An opened stations.idx: the directories and located stations resident, the series where they lie. */
export interface StationsIndex {
  directories: Record<ObservationKind, StationDirectory>;
  located: LocatedStations;
  close(): void;
}

function readStrings(t: SectionTable): string[] {
  let strings: unknown;
  try {
    strings = JSON.parse(Buffer.from(t.u8("strings")).toString("utf8"));
  } catch (err) {
    if (err instanceof DataFormatError) throw err;
    throw new DataFormatError({ file: t.file, field: "strings" }, "a JSON array of strings", (err as Error).message);
  }
  if (!Array.isArray(strings) || !strings.every((s) => typeof s === "string")) {
    throw new DataFormatError({ file: t.file, field: "strings" }, "a JSON array of strings", JSON.stringify(strings).slice(0, 80));
  }
  return strings as string[];
}

/** Opens the index over a byte source whose metadata the envelope has checked. */
export function openStationsIndex(source: ByteSource, metadata: BuildMetadata, file: string): StationsIndex {
  const sections = (metadata.extra as { sections?: unknown }).sections;
  if (!Array.isArray(sections)) throw new DataFormatError({ file, field: "metadata.extra.sections" }, "a table of contents", JSON.stringify(sections));
  const t = new SectionTable(source, sections as SectionEntry[], metadata.payloadBytes, file);
  const strings = readStrings(t);
  const series = t.entry("series", "u8");
  const directory = (kind: ObservationKind): StationDirectory => {
    const answers = t.entry(`${kind}.answers`, "u8");
    return new StationDirectory({
      kind,
      source,
      file,
      ids: t.u8(`${kind}.ids`),
      entries: t.u32(`${kind}.entries`),
      answerEntries: t.u32(`${kind}.answerEntries`),
      seriesAt: series.offset,
      seriesBytes: series.length,
      answersAt: answers.offset,
      answersBytes: answers.length,
      strings,
    });
  };
  const directories = { METAR: directory("METAR"), SYNOP: directory("SYNOP") };
  const located = new LocatedStations(
    {
      cells: t.u32("located.cells"),
      cellStart: t.u32("located.cellStart"),
      lat: t.f64("located.lat"),
      lon: t.f64("located.lon"),
      elevation: t.f64("located.elevation"),
      ref: t.u32("located.ref"),
    },
    file,
    { METAR: directories.METAR.knownCount, SYNOP: directories.SYNOP.knownCount },
  );
  return { directories, located, close: () => source.close?.() };
}

/** Opens stations.idx where it lies: the envelope's header checked, the small sections read, nothing else. */
export function openStationsFile(file: string): { index: StationsIndex; metadata: BuildMetadata } {
  return openArtifactFile(file, STATIONS_SPEC, (source, metadata) => openStationsIndex(source, metadata, file));
}
