/**
 * A file of a release that is not what its release.json says: missing, of another size, or of
 * another SHA-256. Raised by `sync` (a download, a copy) and by the server's check before it
 * serves a release; either way the whole release is refused and the one serving stays.
 */
export type ReleaseFileFault = "missing" | "size" | "sha256";

export class ReleaseFileError extends Error {
  override readonly name = "ReleaseFileError";

  constructor(
    /** The file as the reader shows it: relative to the data directory (`releases/<dataset>/<id>/<path>`). */
    readonly file: string,
    /** Where its bytes were read: a URL, or a path relative to the data directory or the source. */
    readonly from: string,
    readonly fault: ReleaseFileFault,
    readonly expected: string,
    readonly got: string,
  ) {
    super(`${file}${from !== file ? ` (from ${from})` : ""}: expected ${expected}, got ${got}`);
  }
}
