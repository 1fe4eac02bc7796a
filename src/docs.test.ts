import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { assembleResults, renderSection } from '../scripts/bench-results.mjs';
import { renderStrategiesDoc, STRATEGIES_DOC } from '../scripts/gen-docs';

/**
 * The documentation cannot drift from the code: docs/strategies.md is what scripts/gen-docs.ts renders from the
 * strategy registry and the option table, every relative link in the hand-written pages points to a file (and, with
 * a #fragment into a markdown page, to a heading or anchor there), and the README stays one screen.
 */

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const read = (path: string) => readFileSync(join(root, path), 'utf8');

/** The markdown pages whose links are checked. */
function pages(): string[] {
  const docs = readdirSync(join(root, 'docs'))
    .filter((f) => f.endsWith('.md'))
    .map((f) => `docs/${f}`);
  const coreReadmes = readdirSync(join(root, 'src/core'))
    .map((f) => `src/core/${f}/README.md`)
    .filter((p) => existsSync(join(root, p)));
  return ['README.md', 'CONTRIBUTING.md', 'src/core/README.md', ...coreReadmes, 'bench/RESULTS.md', ...docs].filter((p) => existsSync(join(root, p)));
}

/** GitHub's heading anchor: lower case, punctuation dropped (hyphens and underscores kept), spaces to hyphens. */
function slug(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/\s/g, '-');
}

function anchorsOf(markdown: string): Set<string> {
  const anchors = new Set<string>();
  const counts = new Map<string, number>();
  let fenced = false;
  for (const line of markdown.split('\n')) {
    if (/^\s*```/.test(line)) fenced = !fenced;
    if (fenced) continue;
    const heading = /^#{1,6}\s+(.*)$/.exec(line);
    if (heading) {
      const base = slug(heading[1]!);
      const n = counts.get(base) ?? 0;
      counts.set(base, n + 1);
      anchors.add(n === 0 ? base : `${base}-${n}`);
    }
  }
  for (const m of markdown.matchAll(/<a id="([^"]+)"><\/a>/g)) anchors.add(m[1]!);
  return anchors;
}

/** Relative link targets outside code (inline code and fences), as [text](target) or ![alt](target). */
function linksOf(markdown: string): string[] {
  const prose = markdown.replace(/```[\s\S]*?```/g, '').replace(/`[^`\n]*`/g, '');
  return [...prose.matchAll(/!?\[[^\]]*\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)].map((m) => m[1]!).filter((t) => !/^[a-z]+:/i.test(t));
}

describe('documentation', () => {
  it(`${STRATEGIES_DOC} is what \`npm run docs\` generates from the registry and the option table`, () => {
    expect(read(STRATEGIES_DOC), `${STRATEGIES_DOC} is stale: run \`npm run docs\` and commit it`).toBe(renderStrategiesDoc());
  });

  it('every relative link in README.md, CONTRIBUTING.md, docs/ and the READMEs of src/core resolves', () => {
    const broken: string[] = [];
    const checked = pages();
    expect(checked).toContain('README.md');
    expect(checked).toContain(STRATEGIES_DOC);
    expect(checked).toContain('src/core/retrievers/README.md');
    for (const page of checked) {
      for (const target of linksOf(read(page))) {
        const [path, fragment] = target.split('#') as [string, string | undefined];
        const file = path === '' ? page : join(dirname(page), decodeURIComponent(path));
        if (!existsSync(join(root, file))) {
          broken.push(`${page}: ${target} (no such file)`);
          continue;
        }
        if (fragment && file.endsWith('.md') && !anchorsOf(read(file)).has(fragment)) broken.push(`${page}: ${target} (no such heading)`);
      }
    }
    expect(broken).toEqual([]);
  });

  it('the link checker sees links, headings and anchors (so an empty result means something)', () => {
    expect(linksOf('see [a](docs/a.md#x) and ![b](b.png) but not `[c](c.md)` nor [d](https://e.org)')).toEqual(['docs/a.md#x', 'b.png']);
    expect([...anchorsOf('# One: `two` (3)\n## One: two 3\n<a id="k"></a>')]).toEqual(['one-two-3', 'one-two-3-1', 'k']);
  });

  it("docs/architecture.md's map names every folder and module of src/core and every rule of `npm run lint`", () => {
    const map = read('docs/architecture.md');
    const core = readdirSync(join(root, 'src/core'), { withFileTypes: true });
    const names = [
      ...core.filter((e) => e.isDirectory()).map((e) => `${e.name}/`),
      ...core.filter((e) => e.isFile() && /\.ts$/.test(e.name) && !/\.test\.ts$/.test(e.name)).map((e) => e.name),
    ];
    expect(names).toContain('optionRows.ts');
    expect(names.filter((n) => !new RegExp(`(^|[\\s\`(,])${n.replace(/\./g, '\\.')}`, 'm').test(map))).toEqual([]);
    // The rule names as scripts/lint-layers.mjs declares them (read as text: importing it would load dependency-cruiser).
    const rules = [...read('scripts/lint-layers.mjs').matchAll(/^\s+name: '([a-z-]+)',$/gm)].map((m) => m[1]!);
    expect(rules).toEqual(expect.arrayContaining(['no-circle-across-folders', 'core-imports-only-core']));
    expect(rules.filter((r) => !map.includes(`\`${r}\``))).toEqual([]);
  });

  it('the README fits on a screen: 200 lines at most', () => {
    expect(read('README.md').replace(/\n$/, '').split('\n').length).toBeLessThanOrEqual(200);
  });

  it('bench/RESULTS.md as `npm run bench` assembles it: an index, each section with its date, machine, commit and output', () => {
    const run = { command: 'npm run bench', date: new Date('2026-12-04T21:30:00Z'), machine: 'a CPU, 2 cores', load: '1.0 / 1.0 / 1.0', commit: 'abc1234' };
    const md = assembleResults({
      steps: [
        { file: 'bench/node.bench.ts', section: renderSection({ ...run, file: 'bench/node.bench.ts', status: 0, seconds: 61.4, output: '\u001b[1mratio\u001b[0m 2.8x\r\n```\n' }, null) },
        { file: 'bench/lab.bench.ts', section: renderSection({ ...run, file: 'bench/lab.bench.ts', status: 1, seconds: 2, output: '' }, null) },
        { file: 'bench/bpe.bench.ts', section: null },
      ],
      lastRun: { command: 'npm run bench', date: run.date, files: ['bench/node.bench.ts', 'bench/lab.bench.ts'] },
      baseline: JSON.parse(read('bench/baseline/issue-28.json')),
    });
    expect(md).toContain('`npm run bench` on 2026-12-04 21:30 UTC');
    expect(md).toContain("ran for 61 s.\n\n- Commit: abc1234\n- Machine: a CPU, 2 cores\n- Load average (1 / 5 / 15 min) at its start: 1.0 / 1.0 / 1.0\n\n```text\nratio 2.8x\n'''\n```");
    expect(md).toContain('## lab (`bench/lab.bench.ts`) — exit code 1');
    expect(md.match(/```/g)).toHaveLength(4);
    // Every link but those to sections (written by the run) points to a file.
    expect(linksOf(md).filter((l) => !l.startsWith('results/')).every((l) => existsSync(join(root, 'bench', l)))).toBe(true);
  });
});
