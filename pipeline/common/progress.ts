/**
 * Progress of a long job as JSON log lines: at most one line per interval (default 2 s), with
 * done/total, percentage, rate and estimated time left. Never one line per row.
 */
import type { Logger } from "../../datasets/common/log.ts";

export class Progress {
  private done = 0;
  private lastReport = 0;
  private readonly started = performance.now();

  constructor(
    private readonly logger: Logger,
    private readonly task: string,
    private readonly total: number | undefined,
    private readonly unit = "items",
    private readonly intervalMs = 2000,
  ) {
    logger.info("started", { task, total, unit });
  }

  /** Adds `n` done items and reports if the interval has passed. */
  tick(n = 1): void {
    this.done += n;
    const now = performance.now();
    if (now - this.lastReport >= this.intervalMs) {
      this.lastReport = now;
      this.report("progress");
    }
  }

  /** Sets the absolute count (for byte-based progress). */
  set(done: number): void {
    this.done = done;
    this.tick(0);
  }

  finish(fields: Record<string, unknown> = {}): void {
    this.report("finished", fields);
  }

  private report(msg: string, extra: Record<string, unknown> = {}): void {
    const elapsedS = (performance.now() - this.started) / 1000;
    const rate = elapsedS > 0 ? this.done / elapsedS : 0;
    const fields: Record<string, unknown> = {
      task: this.task,
      done: this.done,
      unit: this.unit,
      elapsedS: Math.round(elapsedS * 10) / 10,
      ratePerS: Math.round(rate),
      ...extra,
    };
    if (this.total !== undefined && this.total > 0) {
      fields.total = this.total;
      fields.pct = Math.round((this.done / this.total) * 1000) / 10;
      if (rate > 0 && msg === "progress") fields.etaS = Math.round((this.total - this.done) / rate);
    }
    this.logger.info(msg, fields);
  }
}

/** Milliseconds as seconds with one decimal, for log lines and summaries. */
export function seconds(ms: number): number {
  return Math.round(ms / 100) / 10;
}
