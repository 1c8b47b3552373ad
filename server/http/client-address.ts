/**
 * The client's address for the access log. Behind a load balancer the socket's peer is the
 * balancer; only when that peer is one of GEODATA_TRUSTED_PROXIES is X-Forwarded-For believed:
 * its entries are read from the right (the hop nearest to us), trusted proxies skipped, and the
 * first address that is not a trusted proxy is the client (nginx's real_ip_recursive, HAProxy's
 * option forwardfor). A client can prepend anything to the header; what a trusted proxy appended
 * cannot be forged.
 */
import { BlockList, isIP } from "node:net";

export type TrustedProxies = BlockList;

/** The trusted set from the configuration's addresses and CIDRs (checked by datasets/common/config.ts). */
export function trustedProxies(entries: readonly string[]): TrustedProxies | undefined {
  if (entries.length === 0) return undefined;
  const list = new BlockList();
  for (const entry of entries) {
    const [address, prefix] = entry.split("/") as [string, string | undefined];
    const family = isIP(address) === 6 ? "ipv6" : "ipv4";
    if (prefix === undefined) list.addAddress(address, family);
    else list.addSubnet(address, Number(prefix), family);
  }
  return list;
}

/** An address as a socket gives it: an IPv4 peer of a dual-stack socket is `::ffff:a.b.c.d`. */
function plain(address: string): string {
  return address.startsWith("::ffff:") && isIP(address.slice(7)) === 4 ? address.slice(7) : address;
}

function isTrusted(list: TrustedProxies, address: string): boolean {
  const family = isIP(address);
  return family !== 0 && list.check(address, family === 6 ? "ipv6" : "ipv4");
}

/** The client's address: the socket's peer, or what trusted proxies say in X-Forwarded-For. */
export function clientAddress(peer: string | undefined, forwardedFor: string | string[] | undefined, trusted: TrustedProxies | undefined): string | undefined {
  if (peer === undefined || trusted === undefined || forwardedFor === undefined) return peer;
  let client = plain(peer);
  if (!isTrusted(trusted, client)) return client;
  const hops = (Array.isArray(forwardedFor) ? forwardedFor.join(",") : forwardedFor).split(",");
  for (let i = hops.length - 1; i >= 0; i--) {
    const hop = plain(hops[i]!.trim());
    // Not an address: what stands left of it cannot be trusted either.
    if (isIP(hop) === 0) break;
    client = hop;
    if (!isTrusted(trusted, hop)) break;
  }
  return client;
}
