/**
 * evaluateLanceIndex as a library call (its own file: the dense retriever's per-process embedding cache is empty
 * here, so what reaches the embedder is what the index did not supply). The chunks' vectors come from the table;
 * only the questions are embedded. A document is matched to its rows by id, path suffix or file name.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createEmbedder } from '../../embed/index';
import { chunk, evaluate, validateOptions } from '../index';
import { corpusRecords, textConfigHash } from '../corpus/config';
import { evaluateLanceIndex, matchDocumentId } from './readIndex';
import { openLanceSink } from './sink';

const topics = ['tide pools', 'letterpress printing', 'alpine huts', 'fermented tea'];
const documents = ['x.md', 'y.md'].map((id, d) => ({
  id,
  text: Array.from({ length: 10 }, (_, i) => `Part ${i}: notes on ${topics[(i + d) % 4]} with figure ${i * 3 + d}.`).join('\n\n'),
}));
const questions = documents.flatMap((doc) =>
  [1, 6].map((i) => {
    const content = doc.text.split('\n\n')[i]!;
    const start = doc.text.indexOf(content);
    return { question: `notes on ${content.split('notes on ')[1]!.replace(/\.$/, '')}`, references: [{ start, end: start + content.length, content }], corpusId: doc.id };
  }),
);

describe('evaluateLanceIndex', () => {
  it('ranks with the stored vectors: only the questions are embedded, the means are a fresh evaluation’s', async () => {
    const embedder = await createEmbedder({ model: 'builtin' });
    const options = { size: 70, retriever: 'dense' as const };
    const hash = textConfigHash({ size: 70 }, 'test');
    const records = (await Promise.all(documents.map(async (d) => [...corpusRecords(d.id, hash, await chunk(d.text, { size: 70, documentId: d.id }))]))).flat();
    const dir = mkdtempSync(join(tmpdir(), 'chunkscope-lance-eval-'));
    const sink = await openLanceSink(dir, { embedder, embeddingCacheDir: join(dir, 'cache') });
    await sink.apply(records, { added: documents.map((d) => d.id), changed: [], unchanged: [], deleted: [], deleteChunkIds: [] });
    await sink.close();
    const embedded: string[] = [];
    const result = await evaluateLanceIndex(dir, documents, questions, options, { embed: (t) => (embedded.push(...t), embedder.embed(t)) });
    expect(new Set(embedded)).toEqual(new Set(questions.map((q) => q.question)));
    expect(result.configHashes).toEqual([hash]);
    const fresh = await evaluate(documents, questions, options, { embed: (t) => embedder.embed(t) });
    await embedder.dispose();
    expect(result.means).toEqual(fresh.means);
    expect(result.questions).toEqual(fresh.questions);
  }, 60_000);

  it('matches a document to its rows by id, by the path it ends with, or by a unique file name', () => {
    const ids = ['guides/intro.md', 'api/intro.md', 'notes/todo.txt', 'readme.md'];
    expect(matchDocumentId({ id: 'readme.md' }, ids)).toBe('readme.md');
    expect(matchDocumentId({ id: 'intro.md', path: '/data/site/guides/intro.md' }, ids)).toBe('guides/intro.md');
    expect(matchDocumentId({ id: 'todo.txt', path: 'elsewhere/todo.txt' }, ids)).toBe('notes/todo.txt');
    expect(matchDocumentId({ id: 'intro.md', path: 'elsewhere/intro.md' }, ids)).toBeNull(); // two candidates
    expect(matchDocumentId({ id: 'missing.md' }, ids)).toBeNull();
  });
});
