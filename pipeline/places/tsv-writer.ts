/**
 * Buffered writer of staging TSV files that DuckDB then reads in bulk (`read_csv` with quoting
 * disabled: GeoNames values never contain tabs or newlines, and quotes are literal).
 */
import { createWriteStream, type WriteStream } from "node:fs";
import { once } from "node:events";

const FLUSH_CHARS = 1 << 20;

export class TsvWriter {
  private readonly stream: WriteStream;
  private buffer: string[] = [];
  private chars = 0;
  rows = 0;

  constructor(readonly path: string) {
    this.stream = createWriteStream(path, { highWaterMark: 1 << 20 });
  }

  /** Appends a row; await the result when it is a promise (backpressure). */
  add(values: readonly (string | number)[]): Promise<void> | undefined {
    return this.addLine(values.join("\t") + "\n");
  }

  /** Appends a row already joined with tabs and ending in "\n" (hot loops: no array per row). */
  addLine(line: string): Promise<void> | undefined {
    this.buffer.push(line);
    this.chars += line.length;
    this.rows++;
    if (this.chars >= FLUSH_CHARS) return this.flush();
    return undefined;
  }

  private async flush(): Promise<void> {
    const text = this.buffer.join("");
    this.buffer = [];
    this.chars = 0;
    if (!this.stream.write(text)) await once(this.stream, "drain");
  }

  async finish(): Promise<void> {
    await this.flush();
    this.stream.end();
    await once(this.stream, "finish");
  }
}
