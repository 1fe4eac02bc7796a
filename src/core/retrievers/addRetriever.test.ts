import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, expectTypeOf, it, vi } from 'vitest';
import { main } from '../../cli/main';
import { evaluate, validateEvalOptions } from '../eval/index';
import type { EvalSettings, EvalSettingsOf } from '../eval/options';
import { EVAL_OPTIONS, optionSpec, RETRIEVERS, type EvalOptionName } from '../optionTable';
import { getRetriever, RETRIEVER_REGISTRY, type RetrieverName } from './registry';
import { EXACT_OPTION_ROWS } from './testing/exact/options';
import type { exact } from './testing/exact/retriever';

// The recipe of ./README.md ("Adding a retriever"), followed once: the fixture's folder (./testing/exact/: its
// descriptor and its own setting's row, `matchCase`) and one line in the registry (here added by mocking ./registry.ts, as the real line would be). Nothing else is edited, and the
// option table, evaluation, the CLI's flag validation and --help all know the new retriever. If this test fails, the
// recipe has gone stale: a layer compares retriever names again or keeps its own list.
vi.mock('./registry', async (importOriginal) => {
  const real = await importOriginal<typeof import('./registry')>();
  const { exact } = await import('./testing/exact/retriever');
  const RETRIEVER_REGISTRY = [...real.RETRIEVER_REGISTRY, exact]; // ← the one registry line
  return { ...real, RETRIEVER_REGISTRY, ...real.registryOf(RETRIEVER_REGISTRY) };
});

/** The evaluation settings of the registry with the fixture's line (what the real line would make EvalSettings). */
type WithExact = EvalSettingsOf<[...typeof RETRIEVER_REGISTRY, typeof exact]>;
const withExact = (options: Record<string, unknown>) => validateEvalOptions(options) as unknown as WithExact;

const text = 'The lighthouse keeper polished the lens.\n\nGrain prices rose in the harbour town.\n\nThe keeper swam in the cove.';

describe('adding a retriever: one folder and one registry line', () => {
  it('is in the registry and the option table (choices, default unchanged, help)', () => {
    expect(RETRIEVER_REGISTRY.map((r) => r.name)).toEqual(['bm25', 'dense', 'hybrid', 'exact']);
    expect(RETRIEVERS).toEqual(['bm25', 'dense', 'hybrid', 'exact']);
    expect(getRetriever('exact').label).toBe('Exact match');
    expect(optionSpec('retriever').choices).toContain('exact');
    expect(optionSpec('retriever').help).toMatch(/hybrid \(reciprocal rank fusion, k 60\) or exact \(the chunks holding the whole question\)$/);
    expect(validateEvalOptions({ retriever: 'exact' }).retriever).toBe('exact');
    expect(validateEvalOptions({}).retriever).toBe('bm25');
  });

  it("types its own setting from its row: the settings of the registry plus the fixture hold matchCase (compile time)", () => {
    // Checked by `npm run typecheck` (expectTypeOf fails to compile on a mismatch): nothing but the row declares it.
    expectTypeOf<WithExact['matchCase']>().toEqualTypeOf<boolean>();
    expectTypeOf<WithExact['retriever']>().toEqualTypeOf<RetrieverName | 'exact'>();
    expectTypeOf<keyof WithExact>().toEqualTypeOf<'chunksInContext' | 'retriever' | 'hybridWeight' | 'matchCase' | 'stopWords' | 'stemming'>();
    // The real registry: hybrid's own row (retrievers/hybrid/options.ts) and the shared rows (optionRows.ts).
    expectTypeOf<keyof EvalSettings>().toEqualTypeOf<'chunksInContext' | 'retriever' | 'hybridWeight' | 'stopWords' | 'stemming'>();
    expectTypeOf<EvalSettings['hybridWeight']>().toEqualTypeOf<number>();
    expectTypeOf<EvalSettings['stopWords']>().toEqualTypeOf<'none' | 'english'>();
    expectTypeOf<EvalSettings['retriever']>().toEqualTypeOf<'bm25' | 'dense' | 'hybrid'>();
    expectTypeOf<EvalOptionName>().toEqualTypeOf<'retriever' | 'hybridWeight' | 'stopWords' | 'stemming'>();
    expect(EXACT_OPTION_ROWS.map((row) => row.name)).toEqual(['matchCase']);
  });

  it('has its own row among the evaluation options: in the table after hybrid\'s, validated, with its default', () => {
    expect(EVAL_OPTIONS.map((o) => o.name)).toEqual(['chunksInContext', 'retriever', 'hybridWeight', 'matchCase', 'stopWords', 'stemming']);
    expect(optionSpec('matchCase')).toMatchObject({ ...EXACT_OPTION_ROWS[0], engine: false, eval: true });
    expect(withExact({ retriever: 'exact' }).matchCase).toBe(false);
    expect(withExact({ retriever: 'exact', matchCase: 'true' }).matchCase).toBe(true);
    expect(() => validateEvalOptions({ matchCase: 'maybe' })).toThrow(/matchCase must be true or false \(got "maybe"\)/);
  });

  it('ranks in evaluate(): its configuration and its hits are in the results', async () => {
    const questions = [{ question: 'grain prices', references: [{ start: 42, end: 80, content: text.slice(42, 80) }] }];
    const result = await evaluate([{ id: 'doc', text }], questions, { strategy: 'paragraph', size: 60, overlap: 0, retriever: 'exact', chunksInContext: 3 } as never);
    expect(result.configuration).toMatchObject({ retriever: 'exact', k: 3, matchCase: false });
    // Neither an analyzer nor an embedder: their settings are not printed.
    expect(result.configuration).not.toHaveProperty('stopWords');
    expect(result.configuration).not.toHaveProperty('embedder');
    expect(result.questions[0]!.retrieved.map((r) => [r.start, r.end])).toEqual([[42, 80]]);
    expect(result.means.recall).toBe(1);
    // A question no chunk holds whole: nothing retrieved (BM25 would match "keeper").
    const missed = await evaluate([{ id: 'doc', text }], [{ question: 'keeper of grain', references: [{ start: 42, end: 80, content: text.slice(42, 80) }] }], { strategy: 'paragraph', size: 60, overlap: 0, retriever: 'exact' } as never);
    expect(missed.questions[0]!.retrieved).toEqual([]);
    // Its own setting reaches its searcher: "grain prices" is "Grain prices" in the text only when case is ignored.
    const cased = await evaluate([{ id: 'doc', text }], questions, { strategy: 'paragraph', size: 60, overlap: 0, retriever: 'exact', matchCase: true } as never);
    expect(cased.configuration).toMatchObject({ retriever: 'exact', matchCase: true });
    expect(cased.questions[0]!.retrieved).toEqual([]);
  });

  it('is accepted by the CLI (eval --retriever exact), listed in its help and in the refusal of an unknown name', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'chunkscope-retriever-'));
    const doc = join(dir, 'doc.txt');
    writeFileSync(doc, text);
    const questions = join(dir, 'q.jsonl');
    writeFileSync(questions, JSON.stringify({ question: 'keeper swam', references: [{ start: 82, end: 110, content: text.slice(82, 110) }] }) + '\n');
    const run = async (argv: string[]) => {
      let out = '';
      let err = '';
      const code = await main(argv, { stdout: (s) => (out += s), stderr: (s) => (err += s), readStdin: async () => new Uint8Array() });
      return { code, out, err };
    };
    const ok = await run(['eval', doc, '--questions', questions, '--strategy', 'paragraph', '--size', '60', '--overlap', '0', '--retriever', 'exact']);
    expect(ok.err).toBe('');
    expect(ok.code).toBe(0);
    const out = JSON.parse(ok.out);
    expect(out.configuration.retriever).toBe('exact');
    expect(out.questions[0].retrieved.map((r: { start: number; end: number }) => [r.start, r.end])).toEqual([[82, 110]]);
    // Its own row is a flag: `--match-case` ("keeper swam" is lower case in the text, so it still matches).
    const cased = await run(['eval', doc, '--questions', questions, '--strategy', 'paragraph', '--size', '60', '--overlap', '0', '--retriever', 'exact', '--match-case']);
    expect(cased.err).toBe('');
    expect(JSON.parse(cased.out).configuration).toMatchObject({ retriever: 'exact', matchCase: true });
    const bad = await run(['eval', doc, '--questions', questions, '--retriever', 'nope']);
    expect(bad.code).toBe(2);
    expect(bad.err).toMatch(/unknown retriever "nope" \(expected one of bm25, dense, hybrid, exact\)/);
    const help = await run(['eval', '--help']);
    expect(help.out).toContain('--retriever bm25|dense|hybrid|exact');
    expect(help.out).toContain('exact (the chunks holding the whole question)');
    expect(help.out).toMatch(/--match-case +exact: the question must match letter case too/);
  });
});
