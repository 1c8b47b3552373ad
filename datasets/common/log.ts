/**
 * JSON-lines logging for the pipeline and the server: one object per line on stderr (the server's
 * request log goes to stdout, see server/http/access-log.ts). No log line ever carries an API key.
 */

export type LogLevel = "debug" | "info" | "warn" | "error";

export type LogFields = Record<string, unknown>;

export type LogSink = (line: string) => void;

const LEVEL_ORDER: Record<LogLevel, number> = { debug: 10, info: 20, warn: 30, error: 40 };

export interface Logger {
  debug(msg: string, fields?: LogFields): void;
  info(msg: string, fields?: LogFields): void;
  warn(msg: string, fields?: LogFields): void;
  error(msg: string, fields?: LogFields): void;
  /** A logger whose lines all carry these fields (for example `{ step: "places" }`). */
  child(fields: LogFields): Logger;
}

function serializeError(err: unknown): unknown {
  if (err instanceof Error) return { name: err.name, message: err.message, stack: err.stack };
  return err;
}

/** The ISO time of the current millisecond, formatted once per millisecond (busy servers log thousands of lines a second). */
let lastMs = -1;
let lastIso = "";
export function isoNow(): string {
  const ms = Date.now();
  if (ms !== lastMs) {
    lastMs = ms;
    lastIso = new Date(ms).toISOString();
  }
  return lastIso;
}

export function createLogger(options: {
  sink?: LogSink;
  minLevel?: LogLevel;
  base?: LogFields;
} = {}): Logger {
  const sink = options.sink ?? ((line: string) => process.stderr.write(line + "\n"));
  const min = LEVEL_ORDER[options.minLevel ?? "info"];
  const base = options.base ?? {};
  const write = (level: LogLevel, msg: string, fields?: LogFields): void => {
    if (LEVEL_ORDER[level] < min) return;
    const record: LogFields = { time: isoNow(), level, msg, ...base };
    if (fields) {
      for (const k in fields) record[k] = k === "err" ? serializeError(fields[k]) : fields[k];
    }
    sink(JSON.stringify(record));
  };
  return {
    debug: (m, f) => write("debug", m, f),
    info: (m, f) => write("info", m, f),
    warn: (m, f) => write("warn", m, f),
    error: (m, f) => write("error", m, f),
    child: (fields) => createLogger({ sink, minLevel: options.minLevel, base: { ...base, ...fields } }),
  };
}

/** A logger that drops everything (tests, benches). */
export const silentLogger: Logger = createLogger({ sink: () => {} });
