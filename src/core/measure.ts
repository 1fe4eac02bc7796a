import type { Unit } from './types';
import { unitDescriptor } from './units';
import { memoExact, type SpanMeter } from './units/meter';

export type { EstimateEdges, SpanMeter } from './units/meter';

/** JavaScript's \s (what String#trim removes), tested on one UTF-16 code unit. */
export function isWhitespaceCode(c: number): boolean {
  if (c <= 0x20) return c === 0x20 || (c >= 0x09 && c <= 0x0d);
  if (c < 0xa0) return false;
  return (
    c === 0xa0 || c === 0x1680 || (c >= 0x2000 && c <= 0x200a) || c === 0x2028 || c === 0x2029 ||
    c === 0x202f || c === 0x205f || c === 0x3000 || c === 0xfeff
  );
}

/** The last meter per unit: switching units back and forth (chars for chunks, tokens for hover) keeps both. */
const lastMeters = new Map<Unit, { source: string; meter: SpanMeter }>();

/**
 * The meter for (unit, source). The last one per unit is kept, so moving a slider over the same document reuses
 * the pre-token table and the per-span memo.
 */
export function meterFor(unit: Unit, source: string): SpanMeter {
  const last = lastMeters.get(unit);
  if (last && last.source === source) return last.meter;
  let meter: SpanMeter;
  // How a unit counts spans is its descriptor's (src/core/units); a unit without one counts slices.
  const counting = unitDescriptor(unit.name)?.meter;
  if (counting) meter = counting(unit, source);
  else {
    const exact = memoExact(unit, source);
    meter = { exactEstimates: false, exact, estimate: exact };
  }
  lastMeters.set(unit, { source, meter });
  return meter;
}
