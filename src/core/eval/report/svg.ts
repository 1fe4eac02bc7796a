/**
 * Charts as inline SVG strings (no script needed to read them): axis text 12 px, a legend, and each point's value
 * in its <title> (shown on hover by every browser). All text goes through escapeHtml.
 */

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/** Text made inert for HTML and SVG (element content and attribute values). */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ESCAPES[c]!);
}

export interface Series {
  label: string;
  points: { x: number; y: number }[];
}

const COLORS = ['#1f6feb', '#d9480f', '#2b8a3e', '#862e9c', '#c2255c', '#0b7285', '#5f3dc4', '#e67700'];
const W = 560;
const M = { left: 52, right: 16, top: 16, bottom: 44 };

/** A line chart of y in [0, 1] (as %) against x; one line per series, with a legend when there are several. */
export function lineChart(series: readonly Series[], options: { title: string; xLabel: string; yLabel: string }): string {
  // A legend (several series) gets its own rows under the axis label, clear of the lines.
  const legendRows = series.length > 1 ? Math.ceil(series.length / LEGEND_PER_ROW) : 0;
  const legend = legendRows * 22;
  const H = 280 + legend;
  const bottom = M.bottom + legend;
  const xs = series.flatMap((s) => s.points.map((p) => p.x));
  const x0 = Math.min(...xs);
  const x1 = Math.max(...xs);
  const pxAt = (x: number) => M.left + ((x - x0) / Math.max(1, x1 - x0)) * (W - M.left - M.right);
  const px = pxAt;
  const py = (y: number) => H - bottom - Math.max(0, Math.min(1, y)) * (H - M.top - bottom);
  const out: string[] = [`<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${W} ${H}" width="${W}" height="${H}" role="img" aria-label="${escapeHtml(options.title)}" font-family="system-ui, sans-serif" font-size="12">`];
  out.push(`<title>${escapeHtml(options.title)}</title>`);
  for (const t of [0, 0.25, 0.5, 0.75, 1]) {
    out.push(`<line x1="${M.left}" x2="${W - M.right}" y1="${py(t)}" y2="${py(t)}" stroke="#ddd"/>`);
    out.push(`<text x="${M.left - 6}" y="${py(t) + 4}" text-anchor="end" fill="#333">${t * 100}%</text>`);
  }
  const ticks = xs.length > 0 ? [...new Set(xs)].sort((a, b) => a - b) : [];
  const every = Math.max(1, Math.ceil(ticks.length / 10));
  ticks.forEach((x, i) => {
    if (i % every === 0 || i === ticks.length - 1) out.push(`<text x="${px(x)}" y="${H - bottom + 16}" text-anchor="middle" fill="#333">${x}</text>`);
  });
  out.push(`<text x="${(M.left + W - M.right) / 2}" y="${H - bottom + 34}" text-anchor="middle" fill="#333">${escapeHtml(options.xLabel)}</text>`);
  out.push(`<text x="14" y="${(M.top + H - bottom) / 2}" text-anchor="middle" fill="#333" transform="rotate(-90 14 ${(M.top + H - bottom) / 2})">${escapeHtml(options.yLabel)}</text>`);
  series.forEach((s, i) => {
    const color = COLORS[i % COLORS.length]!;
    // Series are nudged apart sideways (3 px each) so that equal values stay visible as separate lines and points.
    const dodge = (i - (series.length - 1) / 2) * 3;
    const px = (x: number) => pxAt(x) + dodge;
    out.push(`<polyline fill="none" stroke="${color}" stroke-width="2" points="${s.points.map((p) => `${px(p.x).toFixed(1)},${py(p.y).toFixed(1)}`).join(' ')}"/>`);
    // Series after the first draw hollow points, so coinciding points stay visible.
    for (const p of s.points) {
      out.push(`<circle cx="${px(p.x).toFixed(1)}" cy="${py(p.y).toFixed(1)}" r="${i === 0 ? 3.5 : 5}" fill="${i === 0 ? color : 'none'}" stroke="${color}" stroke-width="1.5"><title>${escapeHtml(`${s.label}: ${options.xLabel} ${p.x}, ${(p.y * 100).toFixed(1)}%`)}</title></circle>`);
    }
  });
  if (series.length > 1) {
    series.forEach((s, i) => {
      const x = M.left + (i % LEGEND_PER_ROW) * LEGEND_WIDTH;
      const y = H - 18 - (legendRows - 1 - Math.floor(i / LEGEND_PER_ROW)) * 22;
      const name = s.label.length > 22 ? s.label.slice(0, 21) + '…' : s.label;
      out.push(`<rect x="${x}" y="${y}" width="12" height="12" fill="${COLORS[i % COLORS.length]}"/><text x="${x + 18}" y="${y + 10}" fill="#333">${escapeHtml(name)}<title>${escapeHtml(s.label)}</title></text>`);
    });
  }
  out.push('</svg>');
  return out.join('');
}

const LEGEND_WIDTH = 164;
const LEGEND_PER_ROW = Math.floor((W - M.left) / LEGEND_WIDTH);

/** Horizontal bars of values in [0, 1], one group per category (documents), one bar per series. */
export function barChart(categories: readonly string[], series: readonly { label: string; values: (number | null)[] }[], options: { title: string }): string {
  const bar = 14;
  const gap = 10;
  const left = 180;
  const width = 560;
  const group = series.length * bar + gap;
  const height = M.top + categories.length * group + 30 + (series.length > 1 ? 20 : 0);
  const px = (v: number) => left + Math.max(0, Math.min(1, v)) * (width - left - 60);
  const out: string[] = [`<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${width} ${height}" width="${width}" height="${height}" role="img" aria-label="${escapeHtml(options.title)}" font-family="system-ui, sans-serif" font-size="12">`];
  out.push(`<title>${escapeHtml(options.title)}</title>`);
  categories.forEach((c, ci) => {
    const y0 = M.top + ci * group;
    const name = c.length > 26 ? c.slice(0, 25) + '…' : c;
    out.push(`<text x="${left - 8}" y="${y0 + (series.length * bar) / 2 + 4}" text-anchor="end" fill="#333">${escapeHtml(name)}<title>${escapeHtml(c)}</title></text>`);
    series.forEach((s, si) => {
      const v = s.values[ci];
      const y = y0 + si * bar;
      const color = COLORS[si % COLORS.length]!;
      if (v === null || v === undefined) {
        out.push(`<text x="${left + 4}" y="${y + 11}" fill="#777">no questions</text>`);
        return;
      }
      out.push(`<rect x="${left}" y="${y}" width="${(px(v) - left).toFixed(1)}" height="${bar - 2}" fill="${color}"><title>${escapeHtml(`${s.label}, ${c}: ${(v * 100).toFixed(1)}%`)}</title></rect>`);
      out.push(`<text x="${(px(v) + 4).toFixed(1)}" y="${y + 11}" fill="#333">${(v * 100).toFixed(1)}%</text>`);
    });
  });
  if (series.length > 1) {
    series.forEach((s, i) => {
      const x = left + i * 120;
      out.push(`<rect x="${x}" y="${height - 18}" width="12" height="12" fill="${COLORS[i % COLORS.length]}"/><text x="${x + 18}" y="${height - 8}" fill="#333">${escapeHtml(s.label)}</text>`);
    });
  }
  out.push('</svg>');
  return out.join('');
}
