/** The spec's weather time slot as it goes on the wire (field names exactly the spec's). */

export interface Measure {
  /** null when the model does not provide the quantity (never 0, never another model's value). */
  value: number | null;
  unit: string;
}

export interface CloudMeasure extends Measure {
  /** Observed cover (percent) of a station near the point, present only when one reported. */
  localData?: number;
}

export interface ColorPair {
  background: string;
  text: string;
}

export interface ColoredMeasure extends Measure {
  /** null when `value` is null. */
  color: ColorPair | null;
}

export interface SurfaceTemperature extends ColoredMeasure {
  /** Identifier of the station whose observation is near the point and slot, when there is one. */
  localStation?: string;
}

export interface WeatherSlot {
  clouds: { total: CloudMeasure; high: CloudMeasure; middle: CloudMeasure; low: CloudMeasure; convective: CloudMeasure; boundary: CloudMeasure };
  reltiveHumidity: Measure;
  liftedIndex: Measure;
  isotherm: Measure & { temperature: string };
  HPBL: Measure;
  precipitation: { total: Measure; convective: Measure; probability: Measure };
  temperature: { isInversion: 0 | 1; surface: SurfaceTemperature; min: ColoredMeasure; max: ColoredMeasure; felt: ColoredMeasure };
  wind: { speed: Measure; gust: Measure; direction: Measure & { icon: number | null } };
  pressure: Measure & { level: string };
  heatIndex: "" | "1/4" | "2/4" | "3/4" | "4/4";
}

/** `[{ "YYYY-MM-DD": [{ "HH:MM": slot }, ...] }, ...]`: the spec's grouping of slots by local date. */
export type WeatherDays = Record<string, Record<string, WeatherSlot>[]>[];
