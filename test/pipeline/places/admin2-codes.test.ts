import { describe, expect, it } from "vitest";
import { parseAdmin2Line } from "../../../pipeline/places/admin2-codes.ts";

// The admin2Codes.txt layout (code, name, ASCII name, geonameid); the code US.IL.167 is the admin-1
// and admin-2 code cities500 gives Springfield, Illinois (gn:4250542), whose county is Sangamon.
describe("admin2Codes.txt rows", () => {
  it("reads the admin-1 code holding a county, and its names", () => {
    expect(parseAdmin2Line("US.IL.167\tSangamon County\tSangamon County\t4250857")).toEqual({ admin1: "US.IL", name: "Sangamon County", asciiName: "Sangamon County" });
    expect(parseAdmin2Line("")).toBeNull();
  });

  it("refuses a row without its columns or with a code of another form", () => {
    expect(parseAdmin2Line("US.IL.167\tSangamon County")).toMatch(/4 tab-separated columns, got 2/);
    expect(parseAdmin2Line("US.IL\tIllinois\tIllinois\t4896861")).toMatch(/CC.admin1.admin2/);
    expect(parseAdmin2Line("US.IL.167\t\tSangamon County\t4250857")).toMatch(/a name in column 2/);
  });
});
