import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { readConfig } from "../../../datasets/common/config.ts";
import { ConfigError } from "../../../datasets/common/errors.ts";
import { PROJECT_ROOT } from "../../../datasets/common/paths.ts";
import { thrown } from "../../helpers/thrown.ts";

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
    const err = thrown(() => readConfig({ GEODATA_API_KEYS: "secret" }));
    expect(err).toBeInstanceOf(ConfigError);
    expect((err as Error).message).not.toContain("secret");
  });
  it.each([["PORT", "80a"], ["PORT", "70000"], ["GEODATA_REQUEST_TIMEOUT_MS", "-5"], ["GEODATA_LOG_LEVEL", "loud"]])("refuses %s=%s", (name, value) => {
    expect(() => readConfig({ [name]: value })).toThrow(ConfigError);
  });
  it("reads the drain delay, trusted proxies and the serve-only switch, refusing malformed ones with the value given", () => {
    const d = readConfig({});
    expect(d.shutdownDelayMs).toBe(5000);
    expect(d.trustedProxies).toEqual([]);
    expect(d.serveOnly).toBe(false);
    const set = readConfig({ GEODATA_SHUTDOWN_DELAY_MS: "0", GEODATA_TRUSTED_PROXIES: " 10.0.0.0/8, 127.0.0.1 ,fd00::/8", GEODATA_SERVE_ONLY: "1" });
    expect(set.shutdownDelayMs).toBe(0);
    expect(set.trustedProxies).toEqual(["10.0.0.0/8", "127.0.0.1", "fd00::/8"]);
    expect(set.serveOnly).toBe(true);
    expect(readConfig({ GEODATA_SERVE_ONLY: "false" }).serveOnly).toBe(false);
    expect(() => readConfig({ GEODATA_TRUSTED_PROXIES: "10.0.0.0/33" })).toThrow('GEODATA_TRUSTED_PROXIES: expected comma-separated IP addresses or CIDRs such as 10.0.0.0/8, 127.0.0.1 or fd00::/8, got "10.0.0.0/33"');
    expect(() => readConfig({ GEODATA_TRUSTED_PROXIES: "balancer.local" })).toThrow(ConfigError);
    expect(() => readConfig({ GEODATA_SERVE_ONLY: "yes" })).toThrow('GEODATA_SERVE_ONLY: expected 1 or 0 (true or false), got "yes"');
  });
  it("reads CORS origins, the rate limit and the metrics port (all off or open by default)", () => {
    const d = readConfig({});
    expect(d.corsOrigins).toBe("*");
    expect(d.rateLimit).toBeUndefined();
    expect(d.metricsPort).toBeUndefined();
    const c = readConfig({ GEODATA_CORS_ORIGINS: "https://a.example.org, http://localhost:3000", GEODATA_RATE_LIMIT: "100/60s", GEODATA_METRICS_PORT: "9464" });
    expect(c.corsOrigins).toEqual(["https://a.example.org", "http://localhost:3000"]);
    expect(c.rateLimit).toEqual({ requests: 100, windowSeconds: 60 });
    expect(c.metricsPort).toBe(9464);
  });
  it.each([
    ["GEODATA_CORS_ORIGINS", "https://a.example.org/"],
    ["GEODATA_CORS_ORIGINS", "a.example.org"],
    ["GEODATA_RATE_LIMIT", "100"],
    ["GEODATA_RATE_LIMIT", "0/60s"],
    ["GEODATA_RATE_LIMIT", "100/60m"],
    ["GEODATA_METRICS_PORT", "metrics"],
  ])("refuses %s=%s", (name, value) => {
    expect(() => readConfig({ [name]: value })).toThrow(ConfigError);
  });
  it("runs one worker per core by default; GEODATA_WORKERS overrides, 1 to 256", () => {
    expect(readConfig({}).workers).toBe(os.availableParallelism());
    expect(readConfig({ GEODATA_WORKERS: "1" }).workers).toBe(1);
    expect(readConfig({ GEODATA_WORKERS: "3" }).workers).toBe(3);
    for (const bad of ["0", "257", "two", "-1"]) expect(() => readConfig({ GEODATA_WORKERS: bad })).toThrow(ConfigError);
  });
  it("resolves a relative data dir against the project root", () => {
    expect(readConfig({ GEODATA_DATA_DIR: "x/y" }).dataDir).toBe(path.join(PROJECT_ROOT, "x", "y"));
  });
});
