/**
 * The page's golden set exported as Chroma CSV and evaluated by `chunkscope eval <that file> --questions <export>`
 * gives the page's means: the export names the document (corpusIdForDocument), the page's run goes through the
 * chunk worker (ChunkClient → labService, in process), the CLI through main(). The e2e version (a real browser
 * download) is the lead's; this one crosses the same functions.
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ChunkClient, type WorkerLike } from '../bridge/chunkClient';
import { main } from '../cli/main';
import { corpusIdForDocument, formatGoldenSet, parseGoldenSet, validateEvalOptions } from '../core/eval/index';
import type { ChunkOptions } from '../core/types';
import { fromGoldenQuestions, toGoldenQuestions, type GoldenItem } from '../state/labGolden';
import { HAVE_SHARED_EVAL, NEEDS_SHARED_EVAL, SHARED_EVAL_DOCUMENT_PATH, SHARED_EVAL_QUESTIONS_PATH } from '../testing/sharedData';
import { serveChunkWorker } from './chunkService';
import { inProcessWorker } from './inProcess';

let client: ChunkClient | null = null;
afterEach(() => client?.dispose());

async function pageMeans(text: string, options: ChunkOptions, golden: GoldenItem[], k: number) {
  client = new ChunkClient(() => inProcessWorker((end) => serveChunkWorker(end)) as unknown as WorkerLike);
  client.setDocument(1, text);
  const job = await client.chunk(options);
  const settings = validateEvalOptions({ retriever: 'bm25', chunksInContext: k });
  return (await client.evaluate({ jobId: job.jobId, questions: toGoldenQuestions(golden), settings })).result.means;
}

async function cliMeans(dir: string, name: string, text: string, golden: GoldenItem[], flags: string[]) {
  // What the page's "Export" writes for a document named `name`.
  const csv = formatGoldenSet(toGoldenQuestions(golden), 'csv', { defaultCorpusId: corpusIdForDocument(name) });
  writeFileSync(join(dir, name), text);
  writeFileSync(join(dir, 'export.csv'), csv);
  let out = '';
  let err = '';
  const code = await main(['eval', join(dir, name), '--questions', join(dir, 'export.csv'), ...flags], { stdout: (s) => (out += s), stderr: (s) => (err += s), readStdin: async () => new Uint8Array() });
  expect({ code, err }).toEqual({ code: 0, err: '' });
  return { csv, means: JSON.parse(out).means };
}

describe('a golden set exported from the page as Chroma CSV', () => {
  it('names the document, and the CLI gives the page\'s means on that file', async () => {
    const text = 'Refunds are issued within 30 days.\n\nShipping is free above fifty euros.\n\nGift cards cannot be refunded.\n\nSupport answers within two days.';
    const at = (s: string) => ({ start: text.indexOf(s), end: text.indexOf(s) + s.length, content: s });
    const golden = fromGoldenQuestions([
      { question: 'When are refunds issued?', references: [at('within 30 days')] },
      { question: 'Can gift cards be refunded?', references: [at('Gift cards cannot be refunded.')] },
      { question: 'How fast is support?', references: [at('Support answers'), at('Refunds are issued')] },
    ]);
    const options: ChunkOptions = { strategy: 'recursive', size: 40, overlap: 0 };
    const page = await pageMeans(text, options, golden, 1);
    const dir = mkdtempSync(join(tmpdir(), 'chunkscope-roundtrip-'));
    const cli = await cliMeans(dir, 'policy.md', text, golden, ['--strategy', 'recursive', '--size', '40', '--overlap', '0', '--k', '1']);
    expect(parseGoldenSet(cli.csv).map((q) => q.corpusId)).toEqual(['policy.md', 'policy.md', 'policy.md']);
    expect(cli.means).toEqual(page);
    expect(page.recall).toBeGreaterThan(0);
    expect(page.recall).toBeLessThan(1);
  });

  it.skipIf(!HAVE_SHARED_EVAL)(`state_of_the_union imported into the page, exported, evaluated by the CLI: the page's means ${NEEDS_SHARED_EVAL}`, async () => {
    const text = readFileSync(SHARED_EVAL_DOCUMENT_PATH, 'utf8');
    const golden = fromGoldenQuestions(parseGoldenSet(readFileSync(SHARED_EVAL_QUESTIONS_PATH, 'utf8')));
    const options: ChunkOptions = { strategy: 'recursive', size: 400, overlap: 0, unit: 'cl100k_base', compat: 'langchain' };
    const page = await pageMeans(text, options, golden, 5);
    const dir = mkdtempSync(join(tmpdir(), 'chunkscope-roundtrip-'));
    const cli = await cliMeans(dir, 'state_of_the_union.md', text, golden, ['--size', '400', '--overlap', '0', '--unit', 'cl100k_base', '--compat', 'langchain', '--k', '5']);
    expect(cli.means).toEqual(page);
    expect(page.recall).toBeCloseTo(0.9605, 4);
  }, 60_000);
});
