import { Parser } from 'htmlparser2';
import { describe, expect, it } from 'vitest';
import { evaluate } from '../core/eval/evaluate';
import { DEFAULT_CONFIG } from './configSlice';
import { compareRuns, verdictSentence } from './labCompare';
import { comparisonReportInput, reportFileName, reportText, runReportInput, sweepReportInput, withDocumentName } from './labReport';
import type { SweepPoint } from './labSweep';

// The page's reports are core's writers fed from the lab's state: a hostile document name and question text must
// come out as text (the HTML file has no element but the report's own, and no script).

const HOSTILE = '<img src=x onerror=alert(1)>';
const lines = ['Refunds are issued within thirty days.', 'Gift cards cannot be refunded.', 'Shipping is free above fifty euros.', `${HOSTILE} opens at nine.`];
const text = lines.join('\n\n');
const ref = (s: string) => ({ start: text.indexOf(s), end: text.indexOf(s) + s.length, content: s });
const questions = [
  { question: `When are refunds issued? ${HOSTILE}`, references: [ref(lines[0]!)] },
  { question: 'Can gift cards be refunded?', references: [ref(lines[1]!)] },
  { question: 'Is shipping free?', references: [ref(lines[2]!)] },
  { question: 'When does it open?', references: [ref(lines[3]!)] },
];

async function run(size: number) {
  return evaluate([{ id: `${HOSTILE}.md`, text }], questions, { size, overlap: 0, unit: 'chars', chunksInContext: 1 });
}

function tagsOf(html: string): string[] {
  const tags: string[] = [];
  const parser = new Parser({ onopentag: (name) => tags.push(name) }, { recognizeSelfClosing: true });
  parser.write(html);
  parser.end();
  return tags;
}

const ALLOWED = new Set(['html', 'head', 'meta', 'title', 'style', 'body', 'h1', 'h2', 'h3', 'p', 'table', 'thead', 'tbody', 'tr', 'th', 'td', 'code', 'ul', 'ol', 'li', 'strong', 'span', 'figure', 'figcaption', 'svg', 'line', 'text', 'polyline', 'circle', 'rect']);

function expectInert(html: string): void {
  expect(tagsOf(html).filter((t) => !ALLOWED.has(t))).toEqual([]);
  expect(html).not.toMatch(/<script|<img|onerror=alert\(1\)>/i);
  expect(html).toContain('&lt;img src=x onerror=alert(1)&gt;');
}

describe('page reports', () => {
  it("a golden-set run's HTML report shows the means and escapes the document's name and the question", async () => {
    const html = reportText(runReportInput(await run(60), '2026-01-01T00:00:00Z'), 'html');
    expectInert(html);
    expect(html).toContain('Pooled mean');
    expect(html).toContain("default-src 'none'");
    const md = reportText(runReportInput(await run(60)), 'md');
    expect(md).not.toContain('<img');
    expect(md).toContain('&lt;img src=x onerror=alert(1)&gt;');
  });

  it("names the page's document by its file name (escaped), other documents as they are", async () => {
    const r = await evaluate([{ id: 'document', text }], questions, { size: 60, overlap: 0, unit: 'chars', chunksInContext: 1 });
    const named = withDocumentName(r, `${HOSTILE}.md`);
    expect(named.byDocument.map((d) => d.document)).toEqual([`${HOSTILE}.md`]);
    expect(new Set(named.questions.map((q) => q.document))).toEqual(new Set([`${HOSTILE}.md`]));
    expect(withDocumentName(r, null)).toBe(r);
    expect(withDocumentName(await run(60), 'x.md').byDocument[0]!.document).toBe(`${HOSTILE}.md`);
    expectInert(reportText(runReportInput(named), 'html'));
  });

  it('a comparison of a configuration with itself says "No significant difference"; its report carries the verdict and the interval', async () => {
    const a = await run(60);
    const significance = await compareRuns(a.questions, a.questions, 0.05);
    expect(significance.verdict).toBe('none');
    expect(verdictSentence(significance)).toMatch(/^No significant difference in Recall/);
    const html = reportText(comparisonReportInput(a, a, significance), 'html');
    expectInert(html);
    expect(html).toContain('No significant difference in Recall');
    expect(html).toContain('95% CI');
    expect(reportText(comparisonReportInput(a, a, significance), 'md')).toContain('**No significant difference in Recall');
  });

  it("a sweep's report lists every configuration and charts recall against size", () => {
    const point = (size: number, overlap: number, recall: number): SweepPoint => ({ values: { size, overlap }, means: { recall, precision: 0.1, iou: 0.2, precisionOmega: 0.3, hit: recall, reciprocalRank: 0.5 }, chunks: 10, tokens: 100, ms: 1 });
    const points = [point(100, 0, 0.5), point(200, 0, 0.75), point(100, 20, 0.6), point(200, 20, 0.8), { values: { size: 10, overlap: 20 }, means: null, chunks: null, tokens: null, ms: 0, error: 'overlap must be below size' }];
    const input = sweepReportInput(points, DEFAULT_CONFIG, 4, [`${HOSTILE}.md`]);
    expect(input.base).not.toHaveProperty('size');
    expect(input.base).toHaveProperty('strategy', DEFAULT_CONFIG.strategy);
    const html = reportText(input, 'html');
    expectInert(html);
    expect(html).toContain('5 configurations (1 not measured)');
    expect(html).toContain('<strong>80.0%</strong>');
    expect(html).toContain('overlap must be below size');
    // Two lines (overlap 0 and 20), recall against size.
    expect(html).toContain('Recall against size');
    expect(html.match(/<polyline/g)!.length).toBeGreaterThanOrEqual(2);
    const md = reportText(input, 'md');
    expect(md).toContain('| size | overlap | Recall |');
    expect(md).toContain('Best Recall: 80.0% with size 200 · overlap 20.');
    expect(reportFileName('sweep', 'md')).toBe('chunkscope-sweep-report.md');
    expect(reportFileName('run', 'html')).toBe('chunkscope-evaluation-report.html');
  });
});
