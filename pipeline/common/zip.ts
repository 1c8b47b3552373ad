/**
 * Minimal streaming reader of ZIP archives (PKWARE APPNOTE 6.3): finds an entry through the
 * central directory and streams its data, stored (method 0) or deflated (method 8), without
 * extracting to disk. Enough for GeoNames dumps (allCountries.zip is ~400 MB) and SRTM .hgt.zip.
 */
import { createReadStream, promises as fs } from "node:fs";
import { Readable } from "node:stream";
import { createInflateRaw } from "node:zlib";
import { DataFormatError } from "../../datasets/common/errors.ts";

export interface ZipEntry {
  name: string;
  method: number;
  compressedSize: number;
  uncompressedSize: number;
  localHeaderOffset: number;
}

const EOCD_SIGNATURE = 0x06054b50;
const ZIP64_EOCD_LOCATOR = 0x07064b50;
const CENTRAL_SIGNATURE = 0x02014b50;
const LOCAL_SIGNATURE = 0x04034b50;

async function readAt(handle: fs.FileHandle, offset: number, length: number): Promise<Buffer> {
  const buf = Buffer.alloc(length);
  const { bytesRead } = await handle.read(buf, 0, length, offset);
  return buf.subarray(0, bytesRead);
}

/** Lists the entries of a ZIP file from its central directory. */
export async function listZipEntries(file: string): Promise<ZipEntry[]> {
  const handle = await fs.open(file, "r");
  try {
    const size = (await handle.stat()).size;
    const tailLength = Math.min(size, 65_557);
    const tail = await readAt(handle, size - tailLength, tailLength);
    let eocd = -1;
    for (let i = tail.length - 22; i >= 0; i--) {
      if (tail.readUInt32LE(i) === EOCD_SIGNATURE) {
        eocd = i;
        break;
      }
    }
    if (eocd < 0) throw new DataFormatError({ file, offset: size - tailLength }, "a ZIP end-of-central-directory record", "none in the last 64 KiB (not a ZIP file, or truncated)");
    let count = tail.readUInt16LE(eocd + 10);
    let cdSize = tail.readUInt32LE(eocd + 12);
    let cdOffset = tail.readUInt32LE(eocd + 16);
    if (cdOffset === 0xffffffff && eocd >= 20 && tail.readUInt32LE(eocd - 20) === ZIP64_EOCD_LOCATOR) {
      const z64Offset = Number(tail.readBigUInt64LE(eocd - 20 + 8));
      const z64 = await readAt(handle, z64Offset, 56);
      count = Number(z64.readBigUInt64LE(32));
      cdSize = Number(z64.readBigUInt64LE(40));
      cdOffset = Number(z64.readBigUInt64LE(48));
    }
    const cd = await readAt(handle, cdOffset, cdSize);
    const entries: ZipEntry[] = [];
    let p = 0;
    for (let i = 0; i < count; i++) {
      if (p + 46 > cd.length || cd.readUInt32LE(p) !== CENTRAL_SIGNATURE) {
        throw new DataFormatError({ file, offset: cdOffset + p }, "a ZIP central directory header", "other bytes (corrupt archive)");
      }
      const method = cd.readUInt16LE(p + 10);
      let compressedSize = cd.readUInt32LE(p + 20);
      let uncompressedSize = cd.readUInt32LE(p + 24);
      const nameLength = cd.readUInt16LE(p + 28);
      const extraLength = cd.readUInt16LE(p + 30);
      const commentLength = cd.readUInt16LE(p + 32);
      let localHeaderOffset = cd.readUInt32LE(p + 42);
      const name = cd.toString("utf8", p + 46, p + 46 + nameLength);
      // ZIP64 extended information (header id 1): 8-byte values for the fields saturated above.
      let e = p + 46 + nameLength;
      const extraEnd = e + extraLength;
      while (e + 4 <= extraEnd) {
        const id = cd.readUInt16LE(e);
        const len = cd.readUInt16LE(e + 2);
        if (id === 1) {
          let q = e + 4;
          if (uncompressedSize === 0xffffffff) { uncompressedSize = Number(cd.readBigUInt64LE(q)); q += 8; }
          if (compressedSize === 0xffffffff) { compressedSize = Number(cd.readBigUInt64LE(q)); q += 8; }
          if (localHeaderOffset === 0xffffffff) { localHeaderOffset = Number(cd.readBigUInt64LE(q)); }
        }
        e += 4 + len;
      }
      entries.push({ name, method, compressedSize, uncompressedSize, localHeaderOffset });
      p += 46 + nameLength + extraLength + commentLength;
    }
    return entries;
  } finally {
    await handle.close();
  }
}

/** Streams the uncompressed bytes of one entry. */
export async function openZipEntry(file: string, entry: ZipEntry): Promise<Readable> {
  const handle = await fs.open(file, "r");
  let local: Buffer;
  try {
    local = await readAt(handle, entry.localHeaderOffset, 30);
  } finally {
    await handle.close();
  }
  if (local.length < 30 || local.readUInt32LE(0) !== LOCAL_SIGNATURE) {
    throw new DataFormatError({ file, offset: entry.localHeaderOffset }, "a ZIP local file header", "other bytes (corrupt archive)");
  }
  const dataStart = entry.localHeaderOffset + 30 + local.readUInt16LE(26) + local.readUInt16LE(28);
  if (entry.compressedSize === 0) return Readable.from([]);
  const raw = createReadStream(file, { start: dataStart, end: dataStart + entry.compressedSize - 1, highWaterMark: 1 << 20 });
  if (entry.method === 0) return raw;
  if (entry.method === 8) return raw.pipe(createInflateRaw());
  throw new DataFormatError({ file, offset: entry.localHeaderOffset + 8, field: entry.name }, "compression method 0 (stored) or 8 (deflate)", `method ${entry.method}`);
}
