/**
 * The artifact envelope: magic, format version, build metadata, checksummed payload.
 * Byte layout: datasets/artifact/FORMAT.md.
 */
import { closeSync, fstatSync, openSync, readSync } from "node:fs";
import { crc32 } from "node:zlib";
import { fileSource, type ByteSource } from "../common/byte-source.ts";
import { DataFormatError, MissingInputError } from "../common/errors.ts";

export const HEADER_BYTES = 16;
export const MAGIC_BYTES = 8;

/** Where a source of an artifact came from. */
export interface SourceInfo {
  name: string;
  location: string;
  bytes?: number;
  sha256?: string;
  /** The source's own date (ISO 8601), when it states one. */
  date?: string;
}

/** Build metadata every artifact carries. */
export interface BuildMetadata {
  kind: string;
  formatVersion: number;
  builtAt: string;
  builder: string;
  sources: SourceInfo[];
  counts: Record<string, number>;
  payloadBytes: number;
  payloadCrc32: number;
  extra: Record<string, unknown>;
}

/** What a writer supplies; the envelope fills in the rest. */
export interface EnvelopeInput {
  magic: string;
  formatVersion: number;
  kind: string;
  sources: SourceInfo[];
  counts: Record<string, number>;
  extra?: Record<string, unknown>;
  /** Overrides the build time (tests). */
  builtAt?: Date;
}

export const BUILDER = "geodata-pipeline 0.1.0";

function checkMagic(magic: string): void {
  if (!/^GEOD[A-Z0-9]{4}$/.test(magic)) {
    throw new Error(`artifact magic must be GEOD plus 4 upper-case characters, got ${JSON.stringify(magic)}`);
  }
}

function align8(n: number): number {
  return Math.ceil(n / 8) * 8;
}

/** Computes CRC-32 over several chunks, in order. */
export function crc32Of(chunks: readonly Uint8Array[]): number {
  let crc = 0;
  for (const chunk of chunks) crc = crc32(chunk, crc);
  return crc >>> 0;
}

/**
 * Builds the header and metadata bytes for a payload given as chunks (so that large payloads are
 * never concatenated). Returns the chunks of the whole file, header first.
 */
export function encodeEnvelope(input: EnvelopeInput, payload: readonly Uint8Array[]): Uint8Array[] {
  const payloadBytes = payload.reduce((n, c) => n + c.byteLength, 0);
  return [encodeEnvelopeHeader(input, payloadBytes, crc32Of(payload)), ...payload];
}

/** The metadata block of an artifact built from `input` (datasets/artifact/FORMAT.md). */
export function buildMetadata(input: EnvelopeInput, payloadBytes: number, payloadCrc32: number): BuildMetadata {
  return {
    kind: input.kind,
    formatVersion: input.formatVersion,
    builtAt: (input.builtAt ?? new Date()).toISOString(),
    builder: BUILDER,
    sources: input.sources,
    counts: input.counts,
    payloadBytes,
    payloadCrc32,
    extra: input.extra ?? {},
  };
}

/**
 * The header, metadata and padding that precede a payload whose size and CRC-32 are already known
 * (for payloads streamed from disk rather than held in memory). With `payloadOffset`, exactly that
 * many bytes: the metadata is padded with spaces so that the payload starts there.
 */
export function encodeEnvelopeHeader(input: EnvelopeInput, payloadBytes: number, payloadCrc32: number, payloadOffset?: number): Uint8Array {
  checkMagic(input.magic);
  const metadata = buildMetadata(input, payloadBytes, payloadCrc32);
  let metaBytes = Buffer.from(JSON.stringify(metadata), "utf8");
  // A payload written before its header (at an offset reserved for it): the JSON ends in spaces up to there.
  if (payloadOffset !== undefined) {
    if (payloadOffset % 8 !== 0 || HEADER_BYTES + metaBytes.byteLength > payloadOffset) {
      throw new Error(`envelope header: the payload offset ${payloadOffset} must be a multiple of 8 leaving room for ${HEADER_BYTES + metaBytes.byteLength} header bytes`);
    }
    metaBytes = Buffer.concat([metaBytes, Buffer.alloc(payloadOffset - HEADER_BYTES - metaBytes.byteLength, 0x20)]);
  }
  const payloadStart = align8(HEADER_BYTES + metaBytes.byteLength);
  const head = Buffer.alloc(payloadStart);
  head.write(input.magic, 0, MAGIC_BYTES, "latin1");
  head.writeUInt32LE(input.formatVersion, 8);
  head.writeUInt32LE(metaBytes.byteLength, 12);
  metaBytes.copy(head, HEADER_BYTES);
  return head;
}

/** The parts of an opened artifact. `payload` is a view into the file's buffer, not a copy. */
export interface OpenedEnvelope {
  metadata: BuildMetadata;
  payload: Uint8Array;
  /** Absolute offset of the payload in the file (a multiple of 8). */
  payloadOffset: number;
}

export interface ExpectedEnvelope {
  magic: string;
  formatVersion: number;
  /** Name used in error messages (usually the file path). */
  file: string;
  /** Skip the CRC check (only for benches that measure it separately). */
  skipChecksum?: boolean;
}

/** Reads just the header and metadata of an artifact (no checksum): for /health and staleness. */
export function readEnvelopeHeader(bytes: Uint8Array, expected: ExpectedEnvelope): { metadata: BuildMetadata; payloadOffset: number } {
  const where = { file: expected.file };
  if (bytes.byteLength < HEADER_BYTES) {
    throw new DataFormatError({ ...where, offset: 0 }, `at least ${HEADER_BYTES} header bytes`, `${bytes.byteLength} bytes`);
  }
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const magic = Buffer.from(bytes.buffer, bytes.byteOffset, MAGIC_BYTES).toString("latin1");
  if (magic !== expected.magic) {
    throw new DataFormatError({ ...where, offset: 0 }, `magic ${expected.magic}`, JSON.stringify(magic));
  }
  const version = view.getUint32(8, true);
  if (version !== expected.formatVersion) {
    throw new DataFormatError({ ...where, offset: 8 }, `format version ${expected.formatVersion}`, `version ${version}`);
  }
  const metaLength = view.getUint32(12, true);
  if (HEADER_BYTES + metaLength > bytes.byteLength) {
    throw new DataFormatError({ ...where, offset: 12 }, `metadata of ${metaLength} bytes within the file`, `a file of ${bytes.byteLength} bytes`);
  }
  let metadata: BuildMetadata;
  try {
    metadata = JSON.parse(Buffer.from(bytes.buffer, bytes.byteOffset + HEADER_BYTES, metaLength).toString("utf8")) as BuildMetadata;
  } catch (err) {
    throw new DataFormatError({ ...where, offset: HEADER_BYTES }, "a JSON metadata block", `unparseable JSON (${(err as Error).message})`);
  }
  return { metadata, payloadOffset: align8(HEADER_BYTES + metaLength) };
}

/**
 * Opens an artifact held in memory: checks magic, version, length and checksum. Only small
 * artifacts are held whole (the elevation index, tests, the pipeline's checks); the server reads
 * the large ones where they lie (openEnvelopeFile), their integrity the release's SHA-256.
 */
export function openEnvelope(bytes: Uint8Array, expected: ExpectedEnvelope): OpenedEnvelope {
  const { metadata, payloadOffset } = readEnvelopeHeader(bytes, expected);
  const where = { file: expected.file };
  checkPayloadSize(metadata, payloadOffset, bytes.byteLength, where.file);
  const payload = bytes.subarray(payloadOffset);
  if (!expected.skipChecksum) {
    const crc = crc32(payload, 0) >>> 0;
    if (crc !== metadata.payloadCrc32) {
      throw new DataFormatError({ ...where, offset: payloadOffset }, `payload CRC-32 ${metadata.payloadCrc32}`, `${crc} (corrupted file)`);
    }
  }
  return { metadata, payload, payloadOffset };
}

function checkPayloadSize(metadata: BuildMetadata, payloadOffset: number, fileBytes: number, file: string): void {
  const actualPayload = fileBytes - payloadOffset;
  if (actualPayload !== metadata.payloadBytes) {
    throw new DataFormatError({ file, offset: payloadOffset }, `a payload of ${metadata.payloadBytes} bytes`, `${actualPayload} bytes (truncated or padded file)`);
  }
}

/**
 * Opens an artifact file where it lies: reads its header and metadata, checks them and the
 * file's size as openEnvelope does, and returns a byte source over the payload (positioned reads
 * through the page cache; the caller closes it). The payload is not read, so its CRC-32 is not
 * checked: the release's SHA-256 check covers the file's bytes (datasets/releases), once, rather
 * than every worker re-reading hundreds of MB at every open. A missing file is a MissingInputError.
 */
export function openEnvelopeFile(path: string, expected: ExpectedEnvelope): { metadata: BuildMetadata; source: ByteSource; payloadOffset: number } {
  let fd: number;
  try {
    fd = openSync(path, "r");
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "ENOENT") throw new MissingInputError(path, `artifact ${expected.magic}`);
    throw err;
  }
  try {
    const size = fstatSync(fd).size;
    const head = Buffer.alloc(Math.min(size, HEADER_BYTES));
    readFully(fd, head, 0);
    const metaLength = head.byteLength === HEADER_BYTES ? head.readUInt32LE(12) : 0;
    const whole = Buffer.alloc(Math.min(size, HEADER_BYTES + metaLength));
    readFully(fd, whole, 0);
    // Shorter than header and metadata only when the file is: the header's checks then say so.
    const { metadata, payloadOffset } = readEnvelopeHeader(whole, expected);
    checkPayloadSize(metadata, payloadOffset, size, expected.file);
    return { metadata, source: fileSource(fd, payloadOffset), payloadOffset };
  } catch (err) {
    closeSync(fd);
    throw err;
  }
}

/**
 * Opens an artifact where it lies and hands it to its reader (`open`: the tables read, nothing
 * else); the file is closed when the reader refuses it.
 */
export function openArtifactFile<T>(file: string, spec: { magic: string; formatVersion: number }, open: (source: ByteSource, metadata: BuildMetadata) => T): { index: T; metadata: BuildMetadata } {
  const { source, metadata } = openEnvelopeFile(file, { magic: spec.magic, formatVersion: spec.formatVersion, file });
  try {
    return { index: open(source, metadata), metadata };
  } catch (err) {
    source.close?.();
    throw err;
  }
}

function readFully(fd: number, into: Buffer, position: number): void {
  let done = 0;
  while (done < into.byteLength) {
    const n = readSync(fd, into, done, into.byteLength - done, position + done);
    if (n === 0) break;
    done += n;
  }
}
