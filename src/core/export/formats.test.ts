import { Document } from '@langchain/core/documents';
import { RecursiveCharacterTextSplitter } from '@langchain/textsplitters';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { chunk } from '../index';
import type { Chunk } from '../types';
import { codePointOffsets, CSV_COLUMNS, LLAMA_RELATIONSHIP, toCsv, toLangChainDocuments, toLlamaIndexNodes } from './formats';

/** A strict RFC 4180 reader written for this test (records end with CRLF; quoted fields may hold anything). */
function parseCsv(input: string): string[][] {
  const records: string[][] = [];
  let record: string[] = [];
  let i = 0;
  while (i < input.length) {
    let field = '';
    if (input[i] === '"') {
      i++;
      for (;;) {
        if (i >= input.length) throw new Error('unterminated quoted field');
        if (input[i] === '"') {
          if (input[i + 1] === '"') {
            field += '"';
            i += 2;
          } else {
            i++;
            break;
          }
        } else field += input[i++];
      }
    } else {
      while (i < input.length && input[i] !== ',' && input[i] !== '\r' && input[i] !== '\n') {
        if (input[i] === '"') throw new Error(`bare quote in an unquoted field at ${i}`);
        field += input[i++];
      }
    }
    record.push(field);
    if (input[i] === ',') {
      i++;
    } else if (input.startsWith('\r\n', i)) {
      records.push(record);
      record = [];
      i += 2;
    } else {
      throw new Error(`expected , or CRLF at ${i}, got ${JSON.stringify(input[i])}`);
    }
  }
  if (record.length > 0) throw new Error('last record without CRLF');
  return records;
}

const META = CSV_COLUMNS.indexOf('metadata');

const NASTY = 'He said "hi, there"\r\nnext, line\n\n"quoted" 😀 emoji, 👩‍👩‍👧 family\rlone CR,,\n\n\n"' + ' end';

describe('toCsv', () => {
  it('round-trips nasty text through an RFC 4180 reader, field by field', async () => {
    const chunks = await chunk(NASTY, { strategy: 'recursive', size: 20, overlap: 5 });
    expect(chunks.length).toBeGreaterThan(2);
    const rows = parseCsv(toCsv(chunks));
    expect(rows[0]).toEqual([...CSV_COLUMNS]);
    expect(rows).toHaveLength(chunks.length + 1);
    chunks.forEach((c, i) => {
      const row = rows[i + 1]!;
      expect(row).toHaveLength(CSV_COLUMNS.length);
      expect(row.slice(0, 5)).toEqual([String(c.index), String(c.start), String(c.end), String(c.size), c.id]);
      expect(row[5]).toBe(c.text);
      expect(row[5]).toBe(NASTY.slice(Number(row[1]), Number(row[2])));
      expect(row[6]).toBe(c.content);
      expect(JSON.parse(row[META]!)).toEqual(c.metadata);
    });
  });

  it('quotes exactly the fields that need it', () => {
    const base: Chunk = { index: 0, start: 0, end: 5, text: 'plain', content: 'a,b', size: 5, id: 'x', metadata: { strategy: 'fixed', compat: 'none' } };
    const line = toCsv([base]).split('\r\n')[1]!;
    expect(line.startsWith('0,0,5,5,x,plain,"a,b",')).toBe(true);
    // The metadata JSON has quotes and commas: quoted, inner quotes doubled.
    expect(line.endsWith('"{""strategy"":""fixed"",""compat"":""none""}"')).toBe(true);
  });

  it('property: any chunk texts survive the round trip', () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.string({ unit: 'grapheme' }), fc.string({ unit: 'binary' })), { maxLength: 6 }), (pairs) => {
        const chunks: Chunk[] = pairs.map(([text, content], index) => ({
          index, start: index, end: index + text.length, text, content, size: content.length, id: `id${index}`,
          metadata: { strategy: 'fixed', compat: 'none', note: content },
        }));
        const rows = parseCsv(toCsv(chunks)).slice(1);
        expect(rows.map((r) => [r[5], r[6], JSON.parse(r[META]!).note])).toEqual(pairs.map(([t, c]) => [t, c, c]));
      }),
      { numRuns: 200 },
    );
  });

  it('empty list: the header row only', () => {
    expect(toCsv([])).toBe('index,start,end,size,id,text,content,heading_path,content_type,pages,parent_id,metadata\r\n');
  });
});

describe('toLangChainDocuments', () => {
  it('gives { pageContent, metadata, id } with start_index at the chunk start', async () => {
    const text = 'foo  bar baz\n\nqux quux corge';
    const chunks = await chunk(text, { strategy: 'character', separators: [' '], size: 7, overlap: 0, compat: 'langchain' });
    const docs = toLangChainDocuments(chunks, { source: 'notes.txt' });
    expect(docs).toHaveLength(chunks.length);
    docs.forEach((d, i) => {
      const c = chunks[i]!;
      expect(Object.keys(d).sort()).toEqual(['id', 'metadata', 'pageContent']);
      expect(d.pageContent).toBe(c.content);
      expect(d.id).toBe(c.id);
      expect(d.metadata).toMatchObject({
        source: 'notes.txt', start_index: c.start, start: c.start, end: c.end, chunk_id: c.id, chunk_index: i,
        strategy: 'character', compat: 'langchain',
      });
      // LangChain's string starts where the span starts (its chunks are trimmed; the span runs first to last char).
      expect(text.startsWith(d.pageContent.slice(0, 1), d.metadata.start_index as number)).toBe(true);
    });
    // "foo  bar": LangChain's join collapses the double space; pageContent is LangChain's string, not the span.
    expect(docs[0]!.pageContent).toBe('foo bar');
    expect(text.slice(docs[0]!.metadata.start as number, docs[0]!.metadata.end as number)).toBe('foo  bar');
  });

  it("pageContent equals LangChain's own createDocuments in compat mode, and the objects load as LangChain Documents", async () => {
    const text = 'Intro line.\n\nA "quoted" paragraph, with commas.\nAnd 😀 more.\n\n\nLast  words here.';
    const options = { strategy: 'recursive' as const, size: 24, overlap: 6, compat: 'langchain' as const };
    const docs = toLangChainDocuments(await chunk(text, options), { source: 'a.md' });
    const reference = await new RecursiveCharacterTextSplitter({ chunkSize: 24, chunkOverlap: 6 }).createDocuments([text]);
    expect(docs.map((d) => d.pageContent)).toEqual(reference.map((d) => d.pageContent));
    for (const d of docs) {
      const loaded = new Document(d);
      expect(loaded.pageContent).toBe(d.pageContent);
      expect(loaded.metadata).toEqual(d.metadata);
      expect(loaded.id).toBe(d.id);
    }
  });

  it('leaves source out when not given', async () => {
    const docs = toLangChainDocuments(await chunk('one two three', { size: 5, overlap: 0 }));
    expect(docs.every((d) => !('source' in d.metadata))).toBe(true);
  });
});

describe('toLlamaIndexNodes', () => {
  it('builds TextNode JSON with SOURCE / PREVIOUS / NEXT relationships by id', async () => {
    const text = 'alpha beta gamma delta epsilon zeta eta theta';
    const chunks = await chunk(text, { strategy: 'recursive', size: 12, overlap: 0 });
    expect(chunks.length).toBeGreaterThan(2);
    const nodes = toLlamaIndexNodes(chunks, { documentId: 'doc-1', sourceText: text });
    nodes.forEach((n, i) => {
      const c = chunks[i]!;
      expect(n.id_).toBe(c.id);
      expect(n.text).toBe(c.content);
      expect(n.class_name).toBe('TextNode');
      expect(n.mimetype).toBe('text/plain');
      expect(n.embedding).toBeNull();
      expect(n.start_char_idx).toBe(c.start);
      expect(n.end_char_idx).toBe(c.end);
      expect(n.metadata).toMatchObject({ strategy: 'recursive', start: c.start, end: c.end, chunk_index: i });
      expect(n.excluded_embed_metadata_keys).toContain('strategy');
      const rel = n.relationships;
      expect(rel[LLAMA_RELATIONSHIP.SOURCE]).toMatchObject({ node_id: 'doc-1', node_type: '4', class_name: 'RelatedNodeInfo' });
      expect(rel[LLAMA_RELATIONSHIP.PREVIOUS]?.node_id).toBe(i > 0 ? chunks[i - 1]!.id : undefined);
      expect(rel[LLAMA_RELATIONSHIP.NEXT]?.node_id).toBe(i < chunks.length - 1 ? chunks[i + 1]!.id : undefined);
      if (rel[LLAMA_RELATIONSHIP.NEXT]) expect(rel[LLAMA_RELATIONSHIP.NEXT]!.node_type).toBe('1');
    });
  });

  it('counts code points like a Python str when given the source text', async () => {
    const text = '😀😀 ab 👩‍👩‍👧 cd efgh';
    const chunks = await chunk(text, { strategy: 'fixed', size: 6, overlap: 0 });
    const nodes = toLlamaIndexNodes(chunks, { documentId: 'd', sourceText: text });
    const points = Array.from(text);
    nodes.forEach((n, i) => {
      // Slicing the code point array like Python's text[start:end] gives the chunk's text back.
      expect(points.slice(n.start_char_idx, n.end_char_idx).join('')).toBe(chunks[i]!.text);
    });
    expect(toLlamaIndexNodes(chunks, { documentId: 'd' })[1]!.start_char_idx).toBe(chunks[1]!.start);
  });

  it('codePointOffsets matches Array.from for any text and offsets between code points', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme-composite' }), fc.array(fc.nat(), { maxLength: 8 }), (text, picks) => {
        const points = Array.from(text);
        const boundaries = [0];
        for (const p of points) boundaries.push(boundaries[boundaries.length - 1]! + p.length);
        const chosen = picks.map((p) => p % boundaries.length);
        expect(codePointOffsets(text, chosen.map((k) => boundaries[k]!))).toEqual(chosen);
      }),
    );
  });
});

/** A markdown document with a table, pages and parent–child units: the structure metadata the exports carry. */
const GUIDE = '# Guide\n\nIntro text here. Second sentence.\n\n## Setup\n\n' + 'Install the tool and run it. '.repeat(12)
  + '\n\n| Step | Time |\n|---|---|\n| install | 1 min |\n\n## Usage\n\nRun it daily. Then rest.\n';

describe('structure metadata in the exports', () => {
  it('CSV: heading_path joined with " > ", content_type, pages joined with ";", parent_id', async () => {
    const chunks = await chunk(GUIDE, { strategy: 'markdown', size: 120, overlap: 0, parentSize: 400, pageStarts: [0, 60] });
    const rows = parseCsv(toCsv(chunks));
    const col = (name: (typeof CSV_COLUMNS)[number]) => CSV_COLUMNS.indexOf(name);
    chunks.forEach((c, i) => {
      const row = rows[i + 1]!;
      expect(row[col('heading_path')]).toBe((c.metadata.headingPath ?? []).join(' > '));
      expect(row[col('content_type')]).toBe(c.metadata.contentType ?? '');
      expect(row[col('pages')]).toBe((c.metadata.pages ?? []).join(';'));
      expect(row[col('parent_id')]).toBe(c.metadata.parentId ?? '');
    });
    const setup = rows.find((r) => r[col('text')]!.startsWith('## Setup'))!;
    expect(setup[col('heading_path')]).toBe('Guide > Setup');
    expect(rows.some((r) => r[col('content_type')] === 'table')).toBe(true);
    expect(rows.some((r) => r[col('pages')] === '1;2')).toBe(true);
    expect(rows.some((r) => r[col('parent_id')] !== '' && r[col('parent_id')] !== 'parent_id')).toBe(true);
  });

  it('LangChain: the structure metadata is flat, headingPath an array of titles', async () => {
    const chunks = await chunk(GUIDE, { strategy: 'markdown', size: 120, overlap: 0, pageStarts: [0, 60] });
    const docs = toLangChainDocuments(chunks);
    docs.forEach((d, i) => {
      expect(d.metadata.headingPath).toEqual(chunks[i]!.metadata.headingPath);
      expect(d.metadata.contentType).toBe(chunks[i]!.metadata.contentType);
      expect(d.metadata.pages).toEqual(chunks[i]!.metadata.pages);
      for (const value of Object.values(d.metadata)) expect(typeof value === 'object' && value !== null && !Array.isArray(value)).toBe(false);
    });
    expect(docs.map((d) => (d.metadata.headingPath as string[]).join('/'))).toContain('Guide/Usage');
  });

  it('LlamaIndex: PARENT and CHILD relationships from parentId; PREVIOUS/NEXT stay within a level', async () => {
    const chunks = await chunk(GUIDE, { strategy: 'markdown', size: 100, overlap: 0, parentSize: 300 });
    expect(chunks.some((c) => c.metadata.parentId)).toBe(true);
    const nodes = toLlamaIndexNodes(chunks, { documentId: 'guide', sourceText: GUIDE });
    const byId = new Map(nodes.map((n) => [n.id_, n]));
    const one = (n: (typeof nodes)[number], key: '2' | '3' | '4') => n.relationships[key];
    nodes.forEach((n, i) => {
      const c = chunks[i]!;
      const parent = one(n, LLAMA_RELATIONSHIP.PARENT);
      expect(parent?.node_id).toBe(c.metadata.parentId);
      if (parent) {
        const siblings = byId.get(parent.node_id)!.relationships[LLAMA_RELATIONSHIP.CHILD]!;
        expect(siblings.map((s) => s.node_id)).toContain(n.id_);
      }
      const kids = n.relationships[LLAMA_RELATIONSHIP.CHILD];
      expect((kids ?? []).map((k) => k.node_id)).toEqual(chunks.filter((x) => x.metadata.parentId === c.id).map((x) => x.id));
      for (const key of [LLAMA_RELATIONSHIP.PREVIOUS, LLAMA_RELATIONSHIP.NEXT]) {
        const neighbour = one(n, key);
        if (neighbour) expect(byId.get(neighbour.node_id)!.metadata.level).toBe(c.metadata.level);
      }
      expect(n.excluded_embed_metadata_keys).toEqual(expect.arrayContaining(parent ? ['parentId', 'level'] : ['level']));
      expect(n.excluded_embed_metadata_keys).not.toContain('headingPath');
    });
    // Each level is one chain: every node but the first and last of its level has both neighbours.
    for (const level of [0, 1]) {
      const chain = nodes.filter((n) => n.metadata.level === level);
      expect(chain.filter((n) => !one(n, LLAMA_RELATIONSHIP.PREVIOUS))).toHaveLength(1);
      expect(chain.filter((n) => !one(n, LLAMA_RELATIONSHIP.NEXT))).toHaveLength(1);
    }
  });

  it("LlamaIndex: sentence windows as SentenceWindowNodeParser's window / original_text keys", async () => {
    const chunks = await chunk(GUIDE, { strategy: 'markdown', size: 200, window: 1, retrieval: 'window' });
    const nodes = toLlamaIndexNodes(chunks, { documentId: 'guide', sourceText: GUIDE });
    nodes.forEach((n, i) => {
      const w = chunks[i]!.metadata.window!;
      expect(n.metadata.window).toBe(GUIDE.slice(w.start, w.end));
      expect(n.metadata.original_text).toBe(chunks[i]!.text);
      expect([n.metadata.window_start, n.metadata.window_end]).toEqual([w.start, w.end]);
      expect(n.excluded_embed_metadata_keys).toEqual(expect.arrayContaining(['window', 'original_text']));
    });
  });
});
