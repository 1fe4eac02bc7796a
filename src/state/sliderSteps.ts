/**
 * Steps that make sense on a wide size slider (1 to 4,000): an arrow key moves by about 1/16 of the value, on a
 * power-of-two grid (…, 200 → 208, 512 → 544, 2048 → 2176), so small sizes move finely and large ones quickly. The
 * number box beside it takes any value.
 */

/** A slider whose range spans two orders of magnitude or more moves in proportional steps. */
export function isWideRange(min: number, max: number): boolean {
  return min >= 1 && max / min >= 100;
}

/** The value after one step up (+1) or down (-1), on the proportional grid, kept within [min, max]. */
export function proportionalStep(value: number, direction: 1 | -1, min: number, max: number): number {
  const v = Math.min(max, Math.max(min, Math.round(Number.isFinite(value) ? value : min)));
  const stepOf = (x: number) => Math.max(1, 2 ** (Math.floor(Math.log2(Math.max(1, x))) - 4));
  let next: number;
  if (direction > 0) {
    const step = stepOf(v);
    next = Math.floor(v / step) * step + step;
  } else {
    // Going down, the step is the one of the value just below (1024 → 992, on the finer grid under 1024).
    const step = stepOf(v - 1);
    next = Math.ceil(v / step) * step - step;
  }
  return Math.min(max, Math.max(min, next));
}

/**
 * Presets on a wide slider: the powers of two from 64 within [min, max] (64, 128, …, 2048). The slider draws them as
 * tick marks and Chromium snaps a drag to the nearest one, so the sizes people try first are easy to hit.
 */
export function sliderPresets(min: number, max: number): number[] {
  const out: number[] = [];
  for (let v = 64; v <= max; v *= 2) if (v >= min) out.push(v);
  return out;
}
