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
import { DEFAULT_CONFIG, type Config } from '../state/configSlice';
import { corpusRequest, optionsFor } from '../state/documentSetLab';
import { evalSettingsOf } from '../state/labJobs';
import { resetStore, useStore } from '../state/store';
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

describe('a golden set over several open documents, exported as Chroma CSV', () => {
  const docs = [
    { name: 'refunds.txt', text: 'Refunds are issued within 30 days.\n\nGift cards cannot be refunded.\n\nA refund goes back to the card that paid.' },
    { name: 'shipping.txt', text: 'Shipping is free above fifty euros.\n\nParcels leave the warehouse within two days.\n\nTracking numbers come by email.' },
    { name: 'support.txt', text: 'Support answers within two days.\n\nThe phone line opens at nine.\n\nChat is for customers with an account.' },
  ];
  const at = (text: string, s: string) => ({ start: text.indexOf(s), end: text.indexOf(s) + s.length, content: s });

  it("names each question's own document, and `chunkscope eval <folder>` gives the page's pooled and per-document means", async () => {
    resetStore();
    const store = useStore.getState();
    store.openDocumentsIn(docs);
    const [refunds, shipping, support] = docs.map((d) => d.text) as [string, string, string];
    const golden: GoldenItem[] = fromGoldenQuestions([
      { question: 'When are refunds issued?', references: [at(refunds, 'within 30 days')], corpusId: 'refunds.txt' },
      { question: 'Can gift cards be refunded?', references: [at(refunds, 'Gift cards cannot be refunded.')], corpusId: 'refunds' },
      { question: 'When do parcels leave?', references: [at(shipping, 'Parcels leave the warehouse within two days.')], corpusId: 'shipping.txt' },
      { question: 'When does the phone line open?', references: [at(support, 'The phone line opens at nine.')], corpusId: 'support.txt' },
      { question: 'Who can use the chat?', references: [at(support, 'Chat is for customers with an account.'), at(support, 'Support answers')], corpusId: 'support.txt' },
      // A corpus that is not open: set aside by the page and by the CLI alike.
      { question: 'What is the capital?', references: [{ start: 0, end: 5, content: 'Paris' }], corpusId: 'geography.txt' },
    ]);
    useStore.setState({ golden });
    const config = { ...DEFAULT_CONFIG, strategy: 'recursive', size: 40, overlap: 0, retriever: 'bm25', chunksInContext: 2 } as Config;
    // The page: the shown document's chunk job, the others chunked in the worker, one index (labJobs.runGoldenSet).
    client = new ChunkClient(() => inProcessWorker((end) => serveChunkWorker(end)) as unknown as WorkerLike);
    const s = useStore.getState();
    client.setDocument(1, s.text);
    const job = await client.chunk(optionsFor(config, { name: s.docName!, pageStarts: null }));
    const request = corpusRequest(s, config);
    expect(request.setAside).toBe('1 question names a corpus that is not open: geography.txt (set aside, not scored)');
    expect(request.corpus?.others.map((d) => d.id)).toEqual(['shipping.txt', 'support.txt']);
    const page = (await client.evaluate({ jobId: job.jobId, questions: request.questions, settings: evalSettingsOf(config), corpus: request.corpus })).result;
    expect(page.byDocument.map((d) => [d.document, d.questions])).toEqual([
      ['refunds.txt', 2],
      ['shipping.txt', 1],
      ['support.txt', 2],
    ]);
    // What the golden tab's "Export" writes (Chroma CSV): each question's own document as corpus_id.
    const csv = formatGoldenSet(toGoldenQuestions(useStore.getState().golden), 'csv', { defaultCorpusId: corpusIdForDocument(s.docName) });
    expect(parseGoldenSet(csv).map((q) => q.corpusId)).toEqual(['refunds.txt', 'refunds', 'shipping.txt', 'support.txt', 'support.txt', 'geography.txt']);
    const dir = mkdtempSync(join(tmpdir(), 'chunkscope-corpus-roundtrip-'));
    for (const d of docs) writeFileSync(join(dir, d.name), d.text);
    const questions = join(mkdtempSync(join(tmpdir(), 'chunkscope-corpus-q-')), 'export.csv');
    writeFileSync(questions, csv);
    let out = '';
    let err = '';
    const code = await main(['eval', dir, '--questions', questions, '--strategy', 'recursive', '--size', '40', '--overlap', '0', '--k', '2'], {
      stdout: (x) => (out += x),
      stderr: (x) => (err += x),
      readStdin: async () => new Uint8Array(),
    });
    expect(code).toBe(0);
    expect(err.trim().split('\n')).toHaveLength(1);
    expect(err).toContain('not open: geography.txt');
    const cli = JSON.parse(out) as typeof page;
    expect(cli.means).toEqual(page.means);
    expect(cli.byDocument.map((d) => [d.document.replace(/^.*[\\/]/, ''), d.questions, d.means])).toEqual(page.byDocument.map((d) => [d.document, d.questions, d.means]));
    expect(cli.spread).toEqual(page.spread);
    expect(page.means.recall).toBeGreaterThan(0);
  });
});
