/**
 * Debian's packaged programs the deployment tests drive (haproxy, nginx): where they are, or
 * undefined when they are not installed (those tests skip and say so in their names).
 */
import { existsSync } from "node:fs";
import path from "node:path";

export function systemTool(name: string): string | undefined {
  for (const dir of ["/usr/sbin", "/usr/bin", "/sbin", "/bin"]) if (existsSync(path.join(dir, name))) return path.join(dir, name);
  return undefined;
}
