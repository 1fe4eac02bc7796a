import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Parser } from 'htmlparser2';
import { describe, expect, it } from 'vitest';
import { runCli } from '../../testing/runCli';

const dir = mkdtempSync(join(tmpdir(), 'chunkscope-report-'));

// A document and a question that carry markup: a report must show them as text.
const hostile = '<img src=x onerror=alert(1)> Delta echo foxtrot.';
const text = `Alpha bravo charlie.\n\n${hostile}\n\nGolf hotel india <b>bold</b>.`;
const doc = join(dir, '<b>name<\\b>.md');
writeFileSync(doc, text);
const start = text.indexOf(hostile);
const questions = join(dir, 'q.jsonl');
writeFileSync(
  questions,
  [
    { question: 'What about golf? <script>alert("owned")</script>', references: [{ start, end: start + hostile.length, content: hostile }] },
    { question: 'hotel india', references: [{ start: text.indexOf('Golf'), end: text.indexOf('Golf') + 17, content: 'Golf hotel india ' }] },
  ]
    .map((q) => JSON.stringify(q))
    .join('\n'),
);

/** Every element of an HTML text, by name. */
function tagsOf(html: string): string[] {
  const tags: string[] = [];
  const parser = new Parser({ onopentag: (name) => tags.push(name) }, { recognizeSelfClosing: true });
  parser.write(html);
  parser.end();
  return tags;
}

const ALLOWED = new Set(['html', 'head', 'meta', 'title', 'style', 'body', 'h1', 'h2', 'h3', 'p', 'table', 'thead', 'tbody', 'tr', 'th', 'td', 'code', 'ul', 'ol', 'li', 'strong', 'span', 'figure', 'figcaption', 'svg', 'line', 'text', 'polyline', 'circle', 'rect']);

describe('--report', () => {
  it('eval writes one self-contained HTML file: inline SVG, no script, every text escaped (a question holding <script> is inert)', async () => {
    const file = join(dir, 'report.html');
    const r = await runCli(['eval', doc, '--questions', questions, '--size', '30', '--overlap', '0', '--k', '1', '--report', file]);
    expect(r.code).toBe(0);
    const html = readFileSync(file, 'utf8');
    const tags = tagsOf(html);
    expect(tags.filter((t) => !ALLOWED.has(t))).toEqual([]);
    expect(tags).toContain('svg');
    expect(html).not.toMatch(/<script|<img|<b>|onerror=alert\(1\)>/i);
    expect(html).toContain('What about golf? &lt;script&gt;alert(&quot;owned&quot;)&lt;/script&gt;');
    expect(html).toContain("default-src 'none'");
    expect(html).not.toMatch(/src="http|href="http/);
    // What it reports: the means with their spread, the curve, the failures by kind.
    expect(html).toContain('Pooled mean');
    expect(html).toContain('Recall@k for k = 1..20');
    expect(html).toContain('Failures by kind');
  });

  it('a .md name gives markdown, inert too', async () => {
    const file = join(dir, 'report.md');
    expect((await runCli(['eval', doc, '--questions', questions, '--size', '30', '--overlap', '0', '--k', '1', '--report', file])).code).toBe(0);
    const text = readFileSync(file, 'utf8');
    expect(text.startsWith('# Chunkscope evaluation\n')).toBe(true);
    expect(text).not.toMatch(/<script|<img|<b>/i);
    expect(text).toContain('| Recall | ');
  });

  it('compare writes the significance and the verdict', async () => {
    const file = join(dir, 'compare.html');
    const r = await runCli(['compare', doc, '--questions', questions, '--a', '--size 30', '--b', '--size 30', '--k', '1', '--report', file]);
    expect(r.code).toBe(0);
    const html = readFileSync(file, 'utf8');
    expect(html).toContain('No significant difference in Recall');
    expect(html).toContain('<h2>Significance</h2>');
    expect(tagsOf(html).filter((t) => !ALLOWED.has(t))).toEqual([]);
  });

  it("sweep writes every configuration's table and its charts (HTML), or the table (markdown); stdout unchanged", async () => {
    const file = join(dir, 'sweep.html');
    const plain = await runCli(['sweep', doc, '--questions', questions, '--size', '20,30,60', '--overlap', '0,10', '--k', '1']);
    const r = await runCli(['sweep', doc, '--questions', questions, '--size', '20,30,60', '--overlap', '0,10', '--k', '1', '--report', file]);
    expect(r.code).toBe(0);
    expect(r.out).toBe(plain.out);
    const html = readFileSync(file, 'utf8');
    expect(tagsOf(html).filter((t) => !ALLOWED.has(t))).toEqual([]);
    expect(html).not.toMatch(/<script|<img|<b>/i);
    expect(html).toContain('<h1>Chunkscope sweep</h1>');
    expect(html).toContain('6 configurations, 2 questions, k = 1.');
    expect(html).toContain('Recall against size');
    // One line per overlap in each of the three charts.
    expect(html.match(/<polyline/g)!.length).toBe(6);
    // The best recall in bold, the rows as measured (the JSON's means).
    const rows = JSON.parse(r.out) as { values: { size: number; overlap: number }; means: { recall: number } }[];
    const best = Math.max(...rows.map((x) => x.means.recall));
    expect(html).toContain(`<strong>${(best * 100).toFixed(1)}%</strong>`);
    expect(html).toContain('&lt;b&gt;name&lt;\\b&gt;.md');
    const md = join(dir, 'sweep.md');
    expect((await runCli(['sweep', doc, '--questions', questions, '--size', '20,30', '--overlap', '0', '--k', '1', '--report', md])).code).toBe(0);
    const text = readFileSync(md, 'utf8');
    expect(text.startsWith('# Chunkscope sweep\n')).toBe(true);
    expect(text).toContain('| size | Recall |');
    expect(text).toContain('| overlap | 0 |');
    expect(text).not.toMatch(/<b>|<img/);
  });

  it('a report that cannot be written is one line, exit 2', async () => {
    const r = await runCli(['eval', doc, '--questions', questions, '--report', join(dir, 'missing-folder', 'r.html')]);
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/^chunkscope: cannot write the report ".*r\.html" \(ENOENT\)\n$/);
  });
});
