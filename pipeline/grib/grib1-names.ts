/**
 * GRIB1 parameter short names of NCEP's operational parameter table 2 (table version 2, also
 * used for versions 1 and 3 of the WMO part 1-127), as wgrib prints them. Unknown parameters get
 * "var<table>_<parameter>" (discipline 255 stands for GRIB1 in GribField).
 */
const NAMES = [
  "", "PRES", "PRMSL", "PTEND", "PVORT", "ICAHT", "GP", "HGT", "DIST", "HSTDV", "TOZNE",
  "TMP", "VTMP", "POT", "EPOT", "TMAX", "TMIN", "DPT", "DEPR", "LAPR", "VIS",
  "RDSP1", "RDSP2", "RDSP3", "PLI", "TMPA", "PRESA", "GPA", "WVSP1", "WVSP2", "WVSP3",
  "WDIR", "WIND", "UGRD", "VGRD", "STRM", "VPOT", "MNTSF", "SGCVV", "VVEL", "DZDT",
  "ABSV", "ABSD", "RELV", "RELD", "VUCSH", "VVCSH", "DIRC", "SPC", "UOGRD", "VOGRD",
  "SPFH", "RH", "MIXR", "PWAT", "VAPP", "SATD", "EVP", "CICE", "PRATE", "TSTM",
  "APCP", "NCPCP", "ACPCP", "SRWEQ", "WEASD", "SNOD", "MIXHT", "TTHDP", "MTHD", "MTHA",
  "TCDC", "CDCON", "LCDC", "MCDC", "HCDC", "CWAT", "BLI", "SNOC", "SNOL", "WTMP",
  "LAND", "DSLM", "SFCR", "ALBDO", "TSOIL", "SOILM", "VEG", "SALTY", "DEN", "WATR",
  "ICEC", "ICETK", "DICED", "SICED", "UICE", "VICE", "ICEG", "ICED", "SNOM", "HTSGW",
  "WVDIR", "WVHGT", "WVPER", "SWDIR", "SWELL", "SWPER", "DIRPW", "PERPW", "DIRSW", "PERSW",
  "NSWRS", "NLWRS", "NSWRT", "NLWRT", "LWAVR", "SWAVR", "GRAD", "BRTMP", "LWRAD", "SWRAD",
  "LHTFL", "SHTFL", "BLYDP", "UFLX", "VFLX", "WMIXE", "IMGD",
  // 128-254: NCEP's local part of table 2.
  "MSLSA", "MSLMA", "MSLET", "LFTX", "4LFTX", "KX", "SX", "MCONV", "VWSH", "TSLSA",
  "BVF2", "PVMW", "CRAIN", "CFRZR", "CICEP", "CSNOW", "SOILW", "PEVPR", "CWORK", "U-GWD",
  "V-GWD", "PV", "COVMZ", "COVTZ", "COVTM", "CLWMR", "O3MR", "GFLUX", "CIN", "CAPE",
  "TKE", "CONDP", "CSUSF", "CSDSF", "CSULF", "CSDLF", "CFNSF", "CFNLF", "VBDSF", "VDDSF",
  "NBDSF", "NDDSF", "RWMR", "SNMR", "MFLX", "LMH", "LMV", "MLYNO", "NLAT", "ELON",
  "ICMR", "GRMR", "GUST", "LPSX", "LPSY", "HGTX", "HGTY", "TPFI", "TIPD", "LTNG",
  "RDRIP", "VPTMP", "HLCY", "PROB", "PROBN", "POP", "CPOFP", "CPOZP", "USTM", "VSTM",
  "NCIP", "EVBS", "EVCW", "ICWAT", "CWDI", "VAFTD", "DSWRF", "DLWRF", "UVI", "MSTAV",
  "SFEXC", "MIXLY", "TRANS", "USWRF", "ULWRF", "CDLYR", "CPRAT", "TTDIA", "TTRAD", "TTPHY",
  "PREIX", "TSD1D", "NLGSP", "HPBL", "5WAVH", "CNWAT", "SOTYP", "VGTYP", "BMIXL", "AMIXL",
  "PEVAP", "SNOHF", "5WAVA", "MFLUX", "DTRF", "UTRF", "BGRUN", "SSRUN", "SIPD", "O3TOT",
  "SNOWC", "SNOT", "COVTW", "LRGHR", "CNVHR", "CNVMR", "SHAHR", "SHAMR", "VDFHR", "VDFUA",
  "VDFVA", "VDFMR", "SWHR", "LWHR", "CD", "FRICV", "RI",
];

/** NCEP table versions whose parameters 1-254 follow the operational table 2. */
const NCEP_TABLE_VERSIONS = new Set([1, 2, 3]);

export function grib1ShortName(tableVersion: number, parameter: number, centre: number): string {
  const wmoPart = parameter >= 1 && parameter <= 127 && tableVersion <= 3;
  const ncepPart = centre === 7 && NCEP_TABLE_VERSIONS.has(tableVersion);
  if ((wmoPart || ncepPart) && parameter < NAMES.length && NAMES[parameter]) return NAMES[parameter]!;
  return `var${tableVersion}_${parameter}`;
}
