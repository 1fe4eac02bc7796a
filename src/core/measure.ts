import { documentCache, instanceKey } from './documentCache';
import type { Unit } from './types';
import { unitDescriptor } from './units';
import { MAX_MEMO, memoExact, type SpanMeter } from './units/meter';

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

/**
 * The meter for (unit, source), kept in the document's cache per unit, so moving a slider over the same document
 * reuses the pre-token table and the per-span memo, and switching units back and forth (chars for chunks, tokens
 * for hover) keeps both.
 */
export function meterFor(unit: Unit, source: string): SpanMeter {
  // How a unit counts spans is its descriptor's (src/core/units); a unit without one counts slices. A count that is
  // the span's length (chars) needs no document and no memo: its one meter is returned as it is.
  const descriptor = unitDescriptor(unit.name);
  if (descriptor?.isLength && descriptor.meter) return descriptor.meter(unit, source);
  return documentCache.getOrCompute(source, `measure.meter:${instanceKey('unit', unit)}`, () => newMeter(unit, source), () => meterBytes(source));
}

function newMeter(unit: Unit, source: string): SpanMeter {
  const counting = unitDescriptor(unit.name)?.meter;
  if (counting) return counting(unit, source);
  const exact = memoExact(unit, source);
  return { exactEstimates: false, exact, estimate: exact };
}

/** A meter's estimated bytes: its span memos (at most MAX_MEMO entries each, about 24 bytes an entry, two of them). */
function meterBytes(source: string): number {
  return Math.min(source.length, MAX_MEMO) * 48;
}
