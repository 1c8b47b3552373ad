/**
 * The keys in force across a reload of GEODATA_API_KEYS_FILE (server/api-keys.ts, wired by
 * server/service.ts): the file's keys are replaced, the others stay, a bad file changes nothing,
 * and a key generated for this run (none configured, the file empty) still answers after SIGHUP.
 */
import { promises as fs } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readConfig } from "../../datasets/common/config.ts";
import { createLogger, silentLogger } from "../../datasets/common/log.ts";
import { ReloadableKeys } from "../../server/api-keys.ts";
import { silentAccessLog } from "../../server/http/access-log.ts";
import { startService, type Service } from "../../server/service.ts";

const ENV_KEY = "env-key-0123456789abcdef";
const FILE_KEY = "file-key-0123456789abcdef";
const NEW_FILE_KEY = "new-file-key-0123456789abcdef";

let dir: string;
beforeAll(async () => {
  dir = await fs.mkdtemp(path.join(os.tmpdir(), "geodata-keys-"));
});
afterAll(async () => {
  await fs.rm(dir, { recursive: true, force: true });
});

describe("ReloadableKeys", () => {
  it("replaces the file's keys on reload and keeps the others; a bad file changes nothing", async () => {
    const file = path.join(dir, "keys");
    await fs.writeFile(file, `# keys\n${FILE_KEY}\n`);
    const config = readConfig({ GEODATA_API_KEYS: ENV_KEY, GEODATA_API_KEYS_FILE: file });
    const keys = new ReloadableKeys([ENV_KEY], [FILE_KEY]);
    expect([keys.isValid(ENV_KEY), keys.isValid(FILE_KEY), keys.isValid(NEW_FILE_KEY)]).toEqual([true, true, false]);
    await fs.writeFile(file, `${NEW_FILE_KEY}\n`);
    expect(keys.reload(config, silentLogger)).toBe(2);
    expect([keys.isValid(ENV_KEY), keys.isValid(FILE_KEY), keys.isValid(NEW_FILE_KEY)]).toEqual([true, false, true]);
    await fs.writeFile(file, "short\n");
    expect(keys.reload(config, silentLogger)).toBeUndefined();
    expect([keys.isValid(ENV_KEY), keys.isValid(NEW_FILE_KEY)]).toEqual([true, true]);
  });
});

describe("a service with a generated key and an empty keys file", () => {
  let service: Service;
  const generated = "generated-0123456789abcdef";
  beforeAll(async () => {
    const file = path.join(dir, "empty-keys");
    await fs.writeFile(file, "# none yet\n");
    const config = readConfig({ PORT: "0", HOST: "127.0.0.1", GEODATA_DATA_DIR: dir, GEODATA_API_KEYS_FILE: file, GEODATA_RELEASE_POLL_MS: "0" });
    service = await startService({ config, logger: createLogger({ sink: () => {}, minLevel: "error" }), accessLogger: silentAccessLog, generatedKey: generated });
  });
  afterAll(async () => {
    await service?.stop();
  });

  it("still accepts the generated key after a reload", async () => {
    const ask = async (): Promise<number> => (await service.app({ method: "GET", url: "/elevation/point/2/json?lat=1&lon=1", headers: { "x-api-key": generated }, hasBody: false })).status;
    // 503: no data here, but the key was accepted (401 otherwise).
    expect(await ask()).toBe(503);
    await service.reload();
    expect(await ask()).toBe(503);
  });
});
