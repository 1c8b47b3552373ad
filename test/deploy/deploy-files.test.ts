/**
 * The deployment files (deploy/, docs/deploy.md) as far as they can be checked without a Docker
 * engine: the YAML parses; HAProxy and nginx accept their configurations (Debian's packages, when
 * installed: `.ci/run` installs them; without them those checks skip and say so); and every
 * command, script, file and GEODATA_ variable they name exists in this checkout.
 */
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { parseAllDocuments } from "yaml";
import { PROJECT_ROOT } from "../../datasets/common/paths.ts";
import { systemTool as tool } from "../helpers/system-tools.ts";

const DEPLOY = path.join(PROJECT_ROOT, "deploy");
const files = readdirSync(DEPLOY, { recursive: true, withFileTypes: true })
  .filter((e) => e.isFile())
  .map((e) => path.relative(PROJECT_ROOT, path.join(e.parentPath, e.name)));
const texts = [...files, "docs/deploy.md"].map((f) => ({ file: f, text: readFileSync(path.join(PROJECT_ROOT, f), "utf8") }));


/** Every variable the configuration reads: the names datasets/common/config.ts gives readInt, readSwitch and env. */
const configVariables = new Set(readFileSync(path.join(PROJECT_ROOT, "datasets", "common", "config.ts"), "utf8").match(/\b(GEODATA_[A-Z0-9_]+|PORT|HOST)\b/g));
/** Variables of the deployment files themselves (the HAProxy configuration's addresses). */
const DEPLOY_VARIABLES = new Set(["GEODATA_LISTEN", "GEODATA_API1", "GEODATA_API2", "GEODATA_API3", "GEODATA_BALANCER_RATE"]);

const pipelineSteps = (): string[] => {
  const help = spawnSync(process.execPath, ["--import", "tsx", path.join(PROJECT_ROOT, "pipeline", "cli.ts"), "--help"], { cwd: PROJECT_ROOT, encoding: "utf8" });
  return [...(help.stdout + help.stderr).matchAll(/^ {2}([a-z][a-z0-9-]*) {2,}/gm)].map((m) => m[1]!);
};

describe("deployment files", () => {
  it("are there: HAProxy, nginx, systemd, Dockerfile, compose, Kubernetes", () => {
    for (const f of ["deploy/haproxy/haproxy.cfg", "deploy/nginx/builder.conf", "deploy/nginx/balancer.conf", "deploy/systemd/geodata-api.service", "deploy/systemd/geodata-sync.timer", "deploy/systemd/geodata-nightly.timer", "deploy/Dockerfile", "deploy/compose.yaml", "deploy/k8s/api.yaml", "deploy/k8s/builder.yaml"]) {
      expect(files, f).toContain(f);
    }
  });

  it.each(files.filter((f) => f.endsWith(".yaml")))("%s parses as YAML", (file) => {
    const docs = parseAllDocuments(readFileSync(path.join(PROJECT_ROOT, file), "utf8"));
    for (const d of docs) expect(d.errors.map((e) => e.message), file).toEqual([]);
    expect(docs.length).toBeGreaterThan(0);
  });

  it("the Kubernetes pods probe /health/live and /health/ready and pause before stopping", () => {
    const api = parseAllDocuments(readFileSync(path.join(DEPLOY, "k8s", "api.yaml"), "utf8")).map((d) => d.toJS());
    const pod = api.find((d) => d.kind === "Deployment").spec.template.spec;
    const container = pod.containers.find((c: { name: string }) => c.name === "api");
    expect(container.readinessProbe.httpGet.path).toBe("/health/ready");
    expect(container.livenessProbe.httpGet.path).toBe("/health/live");
    expect(container.lifecycle.preStop).toBeDefined();
    expect(pod.initContainers[0].command).toContain("sync");
  });

  it("name only GEODATA_ variables the configuration reads (or the balancer configuration's own)", () => {
    const unknown: string[] = [];
    for (const { file, text } of texts) {
      for (const name of text.match(/\bGEODATA_[A-Z0-9_]+\b/g) ?? []) if (!configVariables.has(name) && !DEPLOY_VARIABLES.has(name)) unknown.push(`${file}: ${name}`);
    }
    expect(unknown).toEqual([]);
  });

  it("name only npm scripts, pipeline steps and files that exist", () => {
    const scripts = Object.keys((JSON.parse(readFileSync(path.join(PROJECT_ROOT, "package.json"), "utf8")) as { scripts: Record<string, string> }).scripts);
    const steps = pipelineSteps();
    expect(steps).toContain("nightly");
    const missing: string[] = [];
    for (const { file, text } of texts) {
      for (const m of text.matchAll(/npm run ([a-z:-]+)(?: -- ([a-z][a-z-]*))?/g)) {
        if (!scripts.includes(m[1]!)) missing.push(`${file}: npm script ${m[1]}`);
        if (m[1] === "pipeline" && m[2] && !steps.includes(m[2])) missing.push(`${file}: pipeline step ${m[2]}`);
      }
      for (const m of text.matchAll(/dist\/pipeline\/cli\.js"?,? "?([a-z][a-z-]*)/g)) if (!steps.includes(m[1]!)) missing.push(`${file}: pipeline step ${m[1]}`);
      for (const m of text.matchAll(/\b(scripts\/[a-z-]+\.mjs)/g)) if (!existsSync(path.join(PROJECT_ROOT, m[1]!))) missing.push(`${file}: ${m[1]}`);
      for (const m of text.matchAll(/\(\.\.\/(deploy\/[^)#]+)\)/g)) if (!existsSync(path.join(PROJECT_ROOT, m[1]!))) missing.push(`${file}: ${m[1]}`);
    }
    expect(missing).toEqual([]);
  });

  it("HAProxy's readiness check allows a slow answer (timeout check) instead of its 1 s interval", () => {
    // With the default (inter, 1 s), nodes short of CPU under load all failed their checks at
    // once and HAProxy answered 503 for want of a server (replicas.test.ts on a busy machine).
    const cfg = readFileSync(path.join(DEPLOY, "haproxy", "haproxy.cfg"), "utf8");
    expect(cfg).toMatch(/^\s*default-server check inter 1s /m);
    expect(Number(/^\s*timeout check (\d+)s$/m.exec(cfg)?.[1])).toBeGreaterThanOrEqual(3);
  });

  const haproxy = tool("haproxy");
  it.skipIf(!haproxy)(`HAProxy accepts its configuration${haproxy ? "" : " (skipped: Debian's haproxy is not installed)"}`, () => {
    const out = spawnSync(haproxy!, ["-c", "-f", path.join(DEPLOY, "haproxy", "haproxy.cfg")], {
      env: { ...process.env, GEODATA_LISTEN: "127.0.0.1:18080", GEODATA_API1: "127.0.0.1:18081", GEODATA_API2: "127.0.0.1:18082", GEODATA_API3: "127.0.0.1:18083", GEODATA_BALANCER_RATE: "100" },
      encoding: "utf8",
    });
    expect(out.status, out.stdout + out.stderr).toBe(0);
  });

  const nginx = tool("nginx");
  it.skipIf(!nginx)(`nginx accepts the publisher's and the balancer's configurations${nginx ? "" : " (skipped: Debian's nginx-light is not installed)"}`, () => {
    for (const site of ["builder.conf", "balancer.conf"]) {
      const dir = mkdtempSync(path.join(os.tmpdir(), "geodata-nginx-"));
      try {
        mkdirSync(path.join(dir, "tmp"));
        writeFileSync(path.join(dir, "nginx.conf"), readFileSync(path.join(DEPLOY, "nginx", "nginx.conf"), "utf8"));
        writeFileSync(path.join(dir, "site.conf"), readFileSync(path.join(DEPLOY, "nginx", site), "utf8").replace("root /var/lib/geodata;", `root ${dir};`));
        const out = spawnSync(nginx!, ["-t", "-p", `${dir}/`, "-c", path.join(dir, "nginx.conf")], { encoding: "utf8" });
        expect(out.status, `${site}: ${out.stderr}`).toBe(0);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    }
  });

  it("the Dockerfile is multi-stage, runs as a non-root user and has a HEALTHCHECK on /health/ready", () => {
    const text = readFileSync(path.join(DEPLOY, "Dockerfile"), "utf8");
    expect(text.match(/^FROM /gm)?.length).toBeGreaterThanOrEqual(2);
    expect(text).toMatch(/^USER node$/m);
    expect(text).toMatch(/^HEALTHCHECK .*\n?.*\/health\/ready/m);
    // Its CMD runs a file of this checkout.
    const cmd = /^CMD \["node", "([^"]+)"\]/m.exec(text);
    expect(cmd && existsSync(path.join(PROJECT_ROOT, cmd[1]!))).toBe(true);
  });
});
