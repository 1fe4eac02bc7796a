/** Short label of a size unit, as shown next to numbers. */
export function unitLabel(unit: string): string {
  if (unit === 'chars') return 'chars';
  if (unit === 'words') return 'words';
  return 'tokens';
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
  const abs = Math.abs(n);
  const [scaled, suffix] = abs >= 1e6 ? [n / 1e6, 'M'] : [n / 1e3, 'k'];
  const a = Math.abs(scaled);
  return `${scaled.toFixed(a >= 100 ? 0 : a >= 10 ? 1 : 2)}${suffix}`;
}
