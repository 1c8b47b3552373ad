/**
 * Counts malformed source rows. Each one is logged (the first `logFirst` per file) with file, line
 * and what was expected; when the count passes the threshold the build stops with a
 * DataFormatError naming the last offending line, so a truncated or wrong file never becomes an
 * artifact while a handful of bad rows in a 13-million-row dump does not block the nightly build.
 */
import { DataFormatError } from "../../datasets/common/errors.ts";
import type { Logger } from "../../datasets/common/log.ts";

export interface MalformedRow {
  file: string;
  line: number;
  reason: string;
}

export class MalformedRows {
  private readonly perFile = new Map<string, number>();
  readonly examples: MalformedRow[] = [];
  total = 0;

  constructor(
    private readonly logger: Logger,
    /** Malformed rows tolerated over all files; one more fails the build. */
    private readonly maxMalformed: number,
    private readonly logFirst = 20,
  ) {}

  record(file: string, line: number, reason: string): void {
    this.total++;
    const n = (this.perFile.get(file) ?? 0) + 1;
    this.perFile.set(file, n);
    if (n <= this.logFirst) {
      this.logger.warn("malformed row skipped", { file, line, reason });
      this.examples.push({ file, line, reason });
    }
    if (this.total > this.maxMalformed) {
      throw new DataFormatError(
        { file, line },
        `at most ${this.maxMalformed} malformed rows (--max-malformed)`,
        `${this.total} so far, this one: ${reason}`,
      );
    }
  }

  /** Malformed rows per file name, for the build metadata. */
  counts(): Record<string, number> {
    return Object.fromEntries(this.perFile);
  }
}
