import { unitDescriptor } from '../../core/units';

/** Short label of a size unit, as shown next to numbers. */
export function unitLabel(unit: string): string {
  return unitDescriptor(unit)?.label ?? 'tokens';
}

// One formatter per precision, made once: Number#toLocaleString builds a new Intl formatter on every call.
const formatters = new Map<number, Intl.NumberFormat>();

export function formatNumber(n: number, digits = 0): string {
  let f = formatters.get(digits);
  if (!f) {
    f = new Intl.NumberFormat('en-US', { maximumFractionDigits: digits, minimumFractionDigits: 0 });
    formatters.set(digits, f);
  }
  return f.format(n);
}

/** 15.2k, 152k, 1.52M: three significant digits. */
export function compactNumber(n: number): string {
  // Decimals for three significant digits of x.
  const decimals = (x: number) => (Math.abs(x) >= 100 ? 0 : Math.abs(x) >= 10 ? 1 : 2);
  // 999,950 rounds to 1000k: that is 1.00M.
  const inThousands = Math.abs(n) < 1e6 && Math.abs(Number((n / 1e3).toFixed(0))) < 1000;
  const [scaled, suffix] = inThousands ? [n / 1e3, 'k'] : [n / 1e6, 'M'];
  const shown = scaled.toFixed(decimals(scaled));
  // Rounding can carry into the next magnitude (99.95 -> 100.0): one decimal fewer keeps three digits.
  return `${decimals(Number(shown)) < decimals(scaled) ? scaled.toFixed(decimals(scaled) - 1) : shown}${suffix}`;
}
