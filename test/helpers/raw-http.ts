/**
 * HTTP/1.1 over a raw socket, for tests of what a client library would never send: write any
 * bytes, collect what comes back, and split it into answers (Content-Length framing only, as the
 * server sends).
 */
import net from "node:net";

export interface Exchange {
  /** Every byte the server sent. */
  data: Buffer;
  /** True when the server closed the connection within the wait. */
  closedByServer: boolean;
}

/** Sends `chunks` (each written on its own), then reads until the server closes or `waitMs` passes. */
export function exchange(port: number, chunks: readonly Buffer[], waitMs: number): Promise<Exchange> {
  return new Promise((resolve) => {
    const socket = net.connect(port, "127.0.0.1");
    const received: Buffer[] = [];
    let finished = false;
    const finish = (closedByServer: boolean): void => {
      if (finished) return;
      finished = true;
      clearTimeout(timer);
      socket.destroy();
      resolve({ data: Buffer.concat(received), closedByServer });
    };
    const timer = setTimeout(() => finish(false), waitMs);
    socket.on("data", (d) => received.push(d));
    // A reset (the server destroying a socket with unread input) counts as a close.
    socket.on("error", () => finish(true));
    socket.on("close", () => finish(true));
    socket.on("connect", () => {
      for (const c of chunks) socket.write(c);
    });
  });
}

export interface RawAnswer {
  status: number;
  /** Header names lower-cased; a repeated header keeps its last value. */
  headers: Map<string, string>;
  body: Buffer;
}

export interface ParsedAnswers {
  answers: RawAnswer[];
  /** Why the bytes are not a sequence of whole answers; undefined when they are. */
  error?: string;
}

/**
 * Splits the server's bytes into answers. `bodyless(i)` says whether answer i answers a HEAD (no
 * body despite its Content-Length); 1xx, 204 and 304 never carry one.
 */
export function parseAnswers(data: Buffer, bodyless: (index: number) => boolean = () => false): ParsedAnswers {
  const answers: RawAnswer[] = [];
  let at = 0;
  while (at < data.byteLength) {
    const headEnd = data.indexOf("\r\n\r\n", at, "latin1");
    if (headEnd < 0) return { answers, error: `an incomplete head at byte ${at}: ${JSON.stringify(data.subarray(at, at + 80).toString("latin1"))}` };
    const lines = data.subarray(at, headEnd).toString("latin1").split("\r\n");
    const statusLine = /^HTTP\/1\.1 (\d{3}) [^\r\n]*$/.exec(lines[0]!);
    if (!statusLine) return { answers, error: `a malformed status line ${JSON.stringify(lines[0])}` };
    const status = Number(statusLine[1]);
    const headers = new Map<string, string>();
    for (const line of lines.slice(1)) {
      const colon = line.indexOf(":");
      if (colon <= 0) return { answers, error: `a malformed header line ${JSON.stringify(line)}` };
      headers.set(line.slice(0, colon).toLowerCase(), line.slice(colon + 1).trim());
    }
    at = headEnd + 4;
    let length = 0;
    const noBody = (status >= 100 && status < 200) || status === 204 || status === 304 || bodyless(answers.length);
    if (!noBody) {
      const declared = headers.get("content-length");
      if (declared === undefined || !/^\d+$/.test(declared)) return { answers, error: `an answer ${status} without a Content-Length` };
      length = Number(declared);
      if (at + length > data.byteLength) return { answers, error: `an answer ${status} cut short: ${data.byteLength - at} of ${length} body bytes` };
    }
    if (status >= 200) answers.push({ status, headers, body: data.subarray(at, at + length) });
    at += length;
  }
  return { answers };
}
