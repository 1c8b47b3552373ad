/**
 * The weather slots as JSON bytes, written by the writer compiled from the slot's description
 * (slot-shape.ts), grouped by local date as the spec gives them.
 */
import { compileWriter } from "./answer-shape.ts";
import type { JsonBytes } from "./json-bytes.ts";
import { SLOT_SHAPE } from "./slot-shape.ts";
import { dayRanges, type SlotTable } from "./slot-table.ts";

/** Bytes per slot of a typical answer: the writer's first allocation. */
export const SLOT_BYTES_HINT = 1100;

/** Writes slot `i` (the spec's time slot, members in the spec's order). */
export const writeSlot = compileWriter(SLOT_SHAPE);

/** Writes the spec's `[{"YYYY-MM-DD":[{"HH:MM":slot},...]},...]`. */
export function writeWeatherDays(w: JsonBytes, t: SlotTable): void {
  w.ascii("[");
  const days = dayRanges(t.slots);
  for (let d = 0; d < days.length; d++) {
    const day = days[d]!;
    w.ascii(d === 0 ? '{"' : ',{"').ascii(day.date).ascii('":[');
    for (let i = day.from; i < day.to; i++) {
      w.ascii(i === day.from ? '{"' : ',{"').ascii(t.slots[i]!.time).ascii('":');
      writeSlot(w, t, i);
      w.ascii("}");
    }
    w.ascii("]}");
  }
  w.ascii("]");
}
