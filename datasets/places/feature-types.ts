/**
 * The readable `type` of a point: GeoNames' own English description of the feature code
 * (https://www.geonames.org/export/codes.html), so the vocabulary is GeoNames' and not ours.
 * Codes not listed fall back to the description of their feature class; an unknown class gives
 * "place".
 */

const BY_CODE: Readonly<Record<string, string>> = {
  PPL: "populated place",
  PPLA: "seat of a first-order administrative division",
  PPLA2: "seat of a second-order administrative division",
  PPLA3: "seat of a third-order administrative division",
  PPLA4: "seat of a fourth-order administrative division",
  PPLA5: "seat of a fifth-order administrative division",
  PPLC: "capital of a political entity",
  PPLCH: "historical capital of a political entity",
  PPLF: "farm village",
  PPLG: "seat of government of a political entity",
  PPLH: "historical populated place",
  PPLL: "populated locality",
  PPLQ: "abandoned populated place",
  PPLR: "religious populated place",
  PPLS: "populated places",
  PPLW: "destroyed populated place",
  PPLX: "section of populated place",
  STLMT: "israeli settlement",
  ADM1: "first-order administrative division",
  ADM2: "second-order administrative division",
  ADM3: "third-order administrative division",
  ADM4: "fourth-order administrative division",
  ADM5: "fifth-order administrative division",
  ADMD: "administrative division",
  PCL: "political entity",
  PCLD: "dependent political entity",
  PCLF: "freely associated state",
  PCLI: "independent political entity",
  PCLIX: "section of independent political entity",
  PCLS: "semi-independent political entity",
  TERR: "territory",
  PRSH: "parish",
  ZN: "zone",
};

const BY_CLASS: Readonly<Record<string, string>> = {
  A: "country, state, region",
  H: "stream, lake",
  L: "parks, area",
  P: "city, village",
  R: "road, railroad",
  S: "spot, building, farm",
  T: "mountain, hill, rock",
  U: "undersea",
  V: "forest, heath",
};

/** `featureCode` is GeoNames' "class.code" pair as stored in the index, e.g. "P.PPLC". */
export function readableFeatureType(featureClass: string, featureCode: string): string {
  return BY_CODE[featureCode] ?? BY_CLASS[featureClass] ?? "place";
}
