/**
 * The client's address behind proxies (server/http/client-address.ts): X-Forwarded-For believed
 * only from trusted peers, read from the right, forged entries left of an untrusted hop ignored.
 */
import { describe, expect, it } from "vitest";
import { clientAddress, trustedProxies } from "../../../server/http/client-address.ts";

const balancers = trustedProxies(["10.0.0.0/8", "fd00::/8", "127.0.0.1"]);

describe("clientAddress", () => {
  it("is the socket's peer without trusted proxies, or when the peer is not one", () => {
    expect(clientAddress("203.0.113.7", "198.51.100.1", undefined)).toBe("203.0.113.7");
    expect(clientAddress("203.0.113.7", "198.51.100.1", balancers)).toBe("203.0.113.7");
    expect(clientAddress("::ffff:203.0.113.7", "198.51.100.1", balancers)).toBe("203.0.113.7");
  });

  it("takes the last address a trusted peer appended", () => {
    expect(clientAddress("10.1.2.3", "198.51.100.1", balancers)).toBe("198.51.100.1");
    expect(clientAddress("::ffff:127.0.0.1", "198.51.100.1", balancers)).toBe("198.51.100.1");
    // Two trusted hops (an edge balancer, then an inner one): the client is left of both.
    expect(clientAddress("10.1.2.3", "198.51.100.1, 10.9.9.9", balancers)).toBe("198.51.100.1");
    expect(clientAddress("fd00::1", "2001:db8::5, fd00::2", balancers)).toBe("2001:db8::5");
    // Repeated headers are one list.
    expect(clientAddress("10.1.2.3", ["198.51.100.1", "10.9.9.9"], balancers)).toBe("198.51.100.1");
  });

  it("ignores what the client prepended: forged entries left of the first untrusted hop", () => {
    expect(clientAddress("10.1.2.3", "10.0.0.1, 198.51.100.1", balancers)).toBe("198.51.100.1");
    expect(clientAddress("10.1.2.3", "evil, 198.51.100.1", balancers)).toBe("198.51.100.1");
  });

  it("stops at an entry that is not an address", () => {
    expect(clientAddress("10.1.2.3", "198.51.100.1, unknown", balancers)).toBe("10.1.2.3");
    expect(clientAddress("10.1.2.3", "", balancers)).toBe("10.1.2.3");
  });

  it("names the leftmost when every hop is trusted", () => {
    expect(clientAddress("10.1.2.3", "10.4.4.4, 10.5.5.5", balancers)).toBe("10.4.4.4");
  });
});
