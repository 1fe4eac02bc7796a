/** Short label of a size unit, as shown next to numbers. */
export function unitLabel(unit: string): string {
  if (unit === 'chars') return 'chars';
  if (unit === 'words') return 'words';
  return 'tokens';
}

export const formatNumber = (n: number, digits = 0) =>
  n.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: 0 });
