import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ensureDefaultData } from "../../helpers/default-data.ts";
import { startTestServer, type TestServer } from "../../helpers/server.ts";

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer({ dataDir: await ensureDefaultData(["places"]) });
});
afterAll(async () => {
  await server?.close();
});

interface Point {
  id: string;
  name: string;
  address: string[];
  lat: number;
  lon: number;
  type: string;
  ISO2: string;
}

async function search(query: string): Promise<{ status: number; body: { status: string; code: number; content: { total: number; points: Point[] } } }> {
  const res = await server.get(`/geocode/search/2/json?${query}`);
  return { status: res.status, body: (await res.json()) as never };
}

describe("GET /geocode/search/2/json", () => {
  it("answers Paris with the capital of France first, as a full point object", async () => {
    const { status, body } = await search("q=Paris&limit=3");
    expect(status).toBe(200);
    expect(body.status).toBe("OK");
    expect(body.code).toBe(200);
    expect(body.content.total).toBeGreaterThan(3);
    expect(body.content.points).toHaveLength(3);
    expect(body.content.points[0]).toEqual({
      id: "gn:2988507",
      name: "Paris",
      address: ["Île-de-France", "France"],
      lat: 48.85341,
      lon: 2.3488,
      type: "capital of a political entity",
      ISO2: "FR",
    });
  });

  it("resolves qualifiers", async () => {
    const { body } = await search(`q=${encodeURIComponent("Springfield, IL")}`);
    expect(body.content.points[0]).toMatchObject({ id: "gn:4250542", address: ["Illinois", "United States"], ISO2: "US" });
  });

  it("finds non-Latin names through URL encoding", async () => {
    const { body } = await search(`q=${encodeURIComponent("Москва")}&limit=1`);
    expect(body.content.points[0]!.id).toBe("gn:524901");
  });

  it("limit=0 gives only total; no match is 200 with total 0", async () => {
    const zero = await search("q=Berlin&limit=0");
    expect(zero.body.content.total).toBeGreaterThan(0);
    expect(zero.body.content.points).toEqual([]);
    const none = await search("q=qqqxqqqzz");
    expect(none.status).toBe(200);
    expect(none.body.content).toEqual({ total: 0, points: [] });
  });

  it("pages over a large result set without repeats", async () => {
    const seen: string[] = [];
    let total = 0;
    for (let offset = 0; offset < 400; offset += 100) {
      const { body } = await search(`q=san&limit=100&offset=${offset}`);
      total = body.content.total;
      seen.push(...body.content.points.map((p) => p.id));
    }
    expect(total).toBeGreaterThan(400);
    expect(seen).toHaveLength(400);
    expect(new Set(seen).size).toBe(400);
  });

  it("refuses a bad limit with a 400 naming it", async () => {
    const { status, body } = await search("q=Paris&limit=abc");
    expect(status).toBe(400);
    expect((body as unknown as { message: string }).message).toMatch(/limit/);
  });
});

describe("GET /geocode/id/2/json", () => {
  it("returns Berlin's point and administrative description", async () => {
    const res = await server.get("/geocode/id/2/json?id=gn:2950159");
    expect(res.status).toBe(200);
    const body = (await res.json()) as { content: { point: Point; administrative: Record<string, Record<string, unknown>> } };
    expect(body.content.point).toMatchObject({ id: "gn:2950159", name: "Berlin", ISO2: "DE" });
    const adm = body.content.administrative;
    // GeoNames: Berlin is in admin-1 DE.16 (id 2950157); CLDR: Germany in Japanese is ドイツ.
    expect(adm.administrative1).toMatchObject({ code: "DE.16", id_admin: 2950157, name: "State of Berlin" });
    expect(adm.country).toMatchObject({ ISO2: "DE", ISO3: "DEU", capital: "Berlin" });
    expect((adm.country!.name as Record<string, string>).JA).toBe("ドイツ");
    expect(adm.continent!.code).toBe("EU");
    expect((adm.continent!.name as Record<string, string>).EN).toBe("Europe");
    expect(adm.timezone!.timezone).toBe("Europe/Berlin");
    expect(typeof adm.administrative1!.count).toBe("number");
  });

  it("404s an unknown id and 400s a malformed one, with the error body", async () => {
    const unknown = await server.get("/geocode/id/2/json?id=gn:1");
    expect(unknown.status).toBe(404);
    expect(await unknown.json()).toMatchObject({ status: "error", code: 404 });
    for (const bad of ["2950159", "gn:abc", "gn:0"]) {
      const res = await server.get(`/geocode/id/2/json?id=${encodeURIComponent(bad)}`);
      expect(res.status, bad).toBe(400);
      const body = (await res.json()) as { message: string };
      expect(body.message).toMatch(/'id'/);
    }
  });
});
