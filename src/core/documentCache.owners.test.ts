import { beforeEach, describe, expect, it } from 'vitest';
import { documentCache } from './documentCache';
import { documentIdFor } from './ids';
import { meterFor } from './measure';
import { sentences } from './segment/sentences';
import { separatorLevels } from './segment/separators';
import { loadTiktokenUnit } from './units/tiktoken';
import { wordRanges, wordsUnit } from './units/words';

/**
 * The engine's per-document memos live in the one document cache (one bound, one eviction policy), not in
 * module-level variables of their own: each is found there after use and is gone after the cache is cleared.
 */
describe('per-document memos are owned by documentCache', () => {
  beforeEach(() => documentCache.clear());
  const text = `A document.\n\n${'Some words in a paragraph. '.repeat(400)}`;

  it('the document id', () => {
    const id = documentIdFor(text);
    expect(documentCache.get(text, 'ids.documentId')).toBe(id);
    documentCache.clear();
    expect(documentCache.stats().entries).toBe(0);
    expect(documentIdFor(text)).toBe(id);
  });

  it("a long text's word ranges (short texts are scanned again instead)", () => {
    const ranges = wordRanges(text);
    expect(documentCache.get(text, 'words.ranges')).toBe(ranges);
    expect(wordRanges(text)).toBe(ranges);
    documentCache.clear();
    expect(wordRanges(text)).not.toBe(ranges);
    expect(wordRanges(text).starts).toEqual(ranges.starts);
    wordRanges('a short text');
    expect(documentCache.get('a short text', 'words.ranges')).toBeUndefined();
  });

  it('span meters, per unit object', () => {
    const meter = meterFor(wordsUnit, text);
    expect(meterFor(wordsUnit, text)).toBe(meter);
    const other = { ...wordsUnit };
    expect(meterFor(other, text)).not.toBe(meter);
    expect(meterFor(other, text).exact(0, 100)).toBe(meter.exact(0, 100));
    documentCache.clear();
    expect(meterFor(wordsUnit, text)).not.toBe(meter);
  });

  it("a document's separator splits", () => {
    const [paragraphs] = separatorLevels(text, ['\n\n', ''], false, 'start');
    const pieces = paragraphs!(0, text.length);
    expect(pieces.map((p) => text.slice(p.start, p.end))).toEqual(['A document.', `\n\n${'Some words in a paragraph. '.repeat(400)}`]);
    // Levels made again for the same document (the next slider move) reuse the pieces.
    expect(separatorLevels(text, ['\n\n', ''], false, 'start')[0]!(0, text.length)).toBe(pieces);
    documentCache.clear();
    expect(separatorLevels(text, ['\n\n', ''], false, 'start')[0]!(0, text.length)).not.toBe(pieces);
  });

  it("a document's sentences, per locale", () => {
    const found = sentences(text, 0, 400, 'en');
    expect(found.map((r) => text.slice(r.start, r.end).trim()).filter((s) => s !== '').slice(0, 2)).toEqual(['A document.', 'Some words in a paragraph.']);
    expect(sentences(text, 0, 400, 'en')).toBe(found);
    expect(sentences(text, 0, 400, 'de')).not.toBe(found);
    documentCache.clear();
    expect(sentences(text, 0, 400, 'en')).not.toBe(found);
  });

  it("a token unit's pre-token table, token offsets and token spans, per unit object", async () => {
    const unit = (await loadTiktokenUnit('cl100k_base')).withEmptyCaches();
    // The offsets pass builds the table too.
    const offsets = unit.tokenOffsets(text);
    const table = unit.tableFor(text);
    const spans = unit.tokenize(text);
    expect(unit.tableFor(text)).toBe(table);
    expect(unit.tokenOffsets(text)).toBe(offsets);
    expect(unit.tokenize(text)).toBe(spans);
    expect(spans.length).toBe(unit.count(text));
    // Another unit object of the same encoding has entries of its own (a fresh unit starts cold).
    expect(unit.withEmptyCaches().tableFor(text)).not.toBe(table);
    documentCache.clear();
    expect(unit.tableFor(text)).not.toBe(table);
    expect(unit.tokenize(text)).not.toBe(spans);
  });

  it('one bound for all of them: the least recently used document takes its memos with it', () => {
    const documents = Array.from({ length: 9 }, (_, i) => `Document ${i}.\n\n${'Some words in a paragraph. '.repeat(200)}`);
    for (const doc of documents) {
      documentIdFor(doc);
      separatorLevels(doc, ['\n\n', ''], false, 'start')[0]!(0, doc.length);
      meterFor(wordsUnit, doc);
    }
    // At most 8 documents (DEFAULT_DOCUMENT_CACHE_LIMITS): the first one's id, splits and meter went together.
    expect(documentCache.stats().documents).toBe(8);
    expect(documentCache.stats().entries).toBe(8 * 3);
    expect(documentCache.get(documents[0]!, 'ids.documentId')).toBeUndefined();
    expect(documentCache.get(documents[8]!, 'ids.documentId')).toBe(documentIdFor(documents[8]!));
  });
});
