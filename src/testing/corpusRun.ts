/**
 * A tiny stand-in for a corpus run, for the LanceDB sink's tests: the records and changes (CorpusChanges) a run of
 * `documents` gives against the previous run's state, with the filter mode's records (src/node/corpus/config.ts).
 * Test code only.
 */
import { createHash } from 'node:crypto';
import { corpusRecords, textConfigHash } from '../node/corpus/config';
import { chunk } from '../node/index';
import type { CorpusChanges, CorpusChunkRecord } from '../node/corpus/record';

const OPTIONS = { size: 120, overlap: 20 };
const CONFIG_HASH = textConfigHash(OPTIONS, 'test');

/** What a corpus run hands a sink: its records and changes against the previous run's state (a tiny corpus command). */
export type CorpusState = Map<string, { hash: string; chunkIds: string[] }>;
export async function corpusRun(documents: Record<string, string>, previous: CorpusState = new Map()) {
  const state: CorpusState = new Map();
  const records: CorpusChunkRecord[] = [];
  const changes: CorpusChanges = { added: [], changed: [], unchanged: [], deleted: [], deleteChunkIds: [] };
  for (const [id, text] of Object.entries(documents)) {
    const hash = createHash('sha256').update(text).digest('hex');
    const before = previous.get(id);
    const mine = [...corpusRecords(id, CONFIG_HASH, await chunk(text, { ...OPTIONS, documentId: id }))];
    records.push(...mine);
    state.set(id, { hash, chunkIds: mine.map((r) => r.chunkId) });
    if (!before) changes.added.push(id);
    else if (before.hash === hash) changes.unchanged.push(id);
    else {
      changes.changed.push(id);
      changes.deleteChunkIds.push(...before.chunkIds);
    }
  }
  for (const [id, before] of previous) {
    if (id in documents) continue;
    changes.deleted.push(id);
    changes.deleteChunkIds.push(...before.chunkIds);
  }
  return { records, changes, state };
}

const sentence = (d: string, i: number) => `Document ${d} sentence ${i} is about ${['rivers', 'trains', 'maps', 'salt'][i % 4]} and little else.`;
const doc = (d: string, n: number) => Array.from({ length: n }, (_, i) => sentence(d, i)).join(i2(n));
const i2 = (n: number) => (n % 2 ? ' ' : '\n\n');
export const CORPUS_FIRST = { 'a.md': doc('a', 12), 'b.md': doc('b', 9), 'c/c.txt': doc('c', 15), "d'quote.md": doc('d', 7) };
export const CORPUS_SECOND = { 'a.md': CORPUS_FIRST['a.md'], 'b.md': CORPUS_FIRST['b.md'].replace('sentence 3', 'sentence three, edited,'), 'c/c.txt': CORPUS_FIRST['c/c.txt'], 'e.md': doc('e', 5) };

