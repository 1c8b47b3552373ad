import path from "node:path";
import { describe, expect, it } from "vitest";
import { readConfig } from "../../../datasets/common/config.ts";
import { ConfigError } from "../../../datasets/common/errors.ts";
import { PROJECT_ROOT } from "../../../datasets/common/paths.ts";

describe("readConfig", () => {
  it("has documented defaults and no default key", () => {
    const c = readConfig({});
    expect(c.port).toBe(8080);
    expect(c.host).toBe("0.0.0.0");
    expect(c.apiKeys).toEqual([]);
    expect(c.dataDir).toBe(path.join(PROJECT_ROOT, "data"));
  });
  it("splits and trims keys", () => {
    expect(readConfig({ GEODATA_API_KEYS: " aaaaaaaaaaaaaaaa , bbbbbbbbbbbbbbbb ,," }).apiKeys).toEqual(["aaaaaaaaaaaaaaaa", "bbbbbbbbbbbbbbbb"]);
  });
  it("refuses a short key without echoing it", () => {
    try {
      readConfig({ GEODATA_API_KEYS: "secret" });
      throw new Error("expected a ConfigError");
    } catch (err) {
      expect(err).toBeInstanceOf(ConfigError);
      expect((err as Error).message).not.toContain("secret");
    }
  });
  it.each([["PORT", "80a"], ["PORT", "70000"], ["GEODATA_REQUEST_TIMEOUT_MS", "-5"], ["GEODATA_LOG_LEVEL", "loud"]])("refuses %s=%s", (name, value) => {
    expect(() => readConfig({ [name]: value })).toThrow(ConfigError);
  });
  it("resolves a relative data dir against the project root", () => {
    expect(readConfig({ GEODATA_DATA_DIR: "x/y" }).dataDir).toBe(path.join(PROJECT_ROOT, "x", "y"));
  });
});
