/**
 * Headless Chromium for the browser tests: Debian's `chromium` package (or CHROMIUM_PATH), driven
 * by playwright-core, with the flags this machine's closed network needs, in a fresh profile.
 */
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { chromium, type BrowserContext } from "playwright-core";

export const CHROMIUM = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
export const haveChromium = existsSync(CHROMIUM);

/** Says why a browser test file skips, once, when there is no Chromium. */
export function sayWhenSkipped(what: string): void {
  if (!haveChromium) console.log(`${what} skipped: no Chromium at ${CHROMIUM} (apt-get install chromium, or set CHROMIUM_PATH)`);
}

export interface Chromium {
  browser: BrowserContext;
  /** Closes the browser and removes its profile. */
  close(): Promise<void>;
}

export async function launchChromium(viewport: { width: number; height: number }): Promise<Chromium> {
  const profile = mkdtempSync(path.join(os.tmpdir(), "geodata-chromium-"));
  // A fresh profile directory per run (playwright passes it as --user-data-dir).
  const browser = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    viewport,
    args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync"],
  });
  return {
    browser,
    close: async () => {
      await browser.close();
      rmSync(profile, { recursive: true, force: true });
    },
  };
}
