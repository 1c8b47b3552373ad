/**
 * Starting a server for a bench: a free local port, and waiting until its /health answers 200.
 */
import net from "node:net";

/** A TCP port free on 127.0.0.1 right now. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = net.createServer();
    s.listen(0, "127.0.0.1", () => {
      const port = (s.address() as net.AddressInfo).port;
      s.close(() => resolve(port));
    });
    s.on("error", reject);
  });
}

/**
 * Resolves once GET /health on `port` answers 200, polling every `intervalMs`; `failed()` is
 * asked before each poll and its message, when it gives one, is thrown (the process died).
 */
export async function waitForHealth(port: number, intervalMs: number, failed: () => string | undefined = () => undefined): Promise<void> {
  for (;;) {
    const reason = failed();
    if (reason !== undefined) throw new Error(reason);
    try {
      const res = await fetch(`http://127.0.0.1:${port}/health`);
      await res.arrayBuffer();
      if (res.ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, intervalMs));
  }
}
