import { readFileSync } from 'node:fs';
import JSZip from 'jszip';
import { describe, expect, it } from 'vitest';
// The fixture writer: real PDFs and DOCX files made by code, read back by the real pdfjs-dist and mammoth.
import { layoutDocument, makePdf, travelPolicyBlocks } from '../../scripts/make-fixtures.mjs';
import { chunk } from '../core/index';
import { ImportError, importDocument, type ImportedDocument } from './index';

const fixture = (name: string) => new Uint8Array(readFileSync(new URL(`../../e2e/files/${name}`, import.meta.url)));
const bytes = (text: string) => new TextEncoder().encode(text);

/** The failure of an import, as the one-line message the page and the CLI show. */
async function failure(name: string, data: Uint8Array): Promise<ImportError> {
  const err = await importDocument(name, data).then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(ImportError);
  const message = (err as ImportError).message;
  expect(message).not.toContain('\n');
  expect(message.startsWith(`“${name}” `)).toBe(true);
  return err as ImportError;
}

function pageTexts(doc: ImportedDocument): string[] {
  const starts = doc.pageStarts!;
  return starts.map((start, i) => doc.text.slice(start, starts[i + 1] ?? doc.text.length));
}

/** The travel policy as the fixture script lays it out: per page, the body lines (no header, no footer). */
const policyPages = layoutDocument(travelPolicyBlocks(), { header: 'ACME Travel Policy', linesPerPage: 14 });
const bodyLines = policyPages.map((runs) => runs.slice(1, -1).map((r) => r.text));

describe('PDF', () => {
  it('reads every page in order, with the page starts where each page begins', async () => {
    const doc = await importDocument('travel-policy.pdf', fixture('travel-policy.pdf'));
    expect(doc.format).toBe('pdf');
    expect(doc.pageStarts).toHaveLength(policyPages.length);
    expect(doc.pageStarts![0]).toBe(0);
    const pages = pageTexts(doc);
    pages.forEach((page, i) => {
      // Without furniture removal every page starts with the running header and ends with its page footer.
      expect(page.startsWith('ACME Travel Policy\n')).toBe(true);
      expect(page.trimEnd().endsWith(`Page ${i + 1} of ${policyPages.length}`)).toBe(true);
      // Every line the writer put on the page is a whole line of that page's text, in order.
      let from = 0;
      for (const line of bodyLines[i]!) {
        const at = page.indexOf(`${line}\n`, from);
        expect(at, `page ${i + 1}: "${line}"`).toBeGreaterThanOrEqual(from);
        from = at + line.length;
      }
    });
    // Headings are lines of their own, set apart by blank lines.
    expect(doc.text).toContain('\n\n2. Booking\n\n');
  });

  it('drops the repeated header and footer, and says how many lines went', async () => {
    const doc = await importDocument('travel-policy.pdf', fixture('travel-policy.pdf'), { dropPageFurniture: true });
    expect(doc.text).not.toContain('ACME Travel Policy');
    expect(doc.text).not.toMatch(/Page \d+ of \d+/);
    // The document's own title is not furniture: it is on the first page only.
    expect(doc.text.startsWith('Travel Policy\n\n1. Purpose\n')).toBe(true);
    expect(doc.notes.join(' ')).toContain(`Dropped ${2 * policyPages.length} repeated header/footer lines`);
    // Each page now starts exactly at its first body line.
    doc.pageStarts!.forEach((start, i) => expect(doc.text.startsWith(bodyLines[i]![0]!, start)).toBe(true));
    // The paragraph that runs over the page break stays one paragraph (a single newline at the break).
    const crossing = policyPages.findIndex((_, i) => i > 0 && /^[a-z]/.test(bodyLines[i]![0]!));
    expect(crossing).toBeGreaterThan(0);
    const start = doc.pageStarts![crossing]!;
    expect(doc.text.slice(start - 1, start)).toBe('\n');
    expect(doc.text.slice(start - 2, start - 1)).not.toBe('\n');
  });

  it('joins runs on one baseline into a line: a space for a gap, none for glyph runs that touch', async () => {
    // Helvetica widths (1/1000 em): H 722, e 556, l 222. "Hel" at 11 pt is 16.5 pt wide.
    const pdf = makePdf([
      [
        { x: 72, y: 700, text: 'Hel', size: 11 },
        { x: 88.5, y: 700, text: 'lo', size: 11 },
        { x: 140, y: 700, text: 'world', size: 11 },
        { x: 170, y: 703, text: '2', size: 7 }, // a raised footnote mark stays on its line
        { x: 72, y: 686, text: 'next line', size: 11 },
        { x: 72, y: 640, text: 'after a gap', size: 11 },
      ],
    ]);
    const doc = await importDocument('runs.pdf', pdf);
    expect(doc.text).toBe('Hello world 2\nnext line\n\nafter a gap');
  });

  it('reports progress page by page and imports a 50-page PDF quickly', async () => {
    const blocks = Array.from({ length: 200 }, (_, i) => [
      { heading: `${i + 1}. Section ${i + 1}` },
      ...travelPolicyBlocks().filter((b) => 'paragraph' in b).slice(0, 3),
    ]).flat();
    const pages = layoutDocument(blocks, { header: 'ACME Handbook', linesPerPage: 40 }).slice(0, 50);
    expect(pages.length).toBe(50);
    const progress: number[] = [];
    const started = performance.now();
    const doc = await importDocument('handbook.pdf', makePdf(pages), { dropPageFurniture: true, onProgress: (done) => progress.push(done) });
    const ms = performance.now() - started;
    console.log(`50-page PDF (${doc.text.length} characters): imported in ${ms.toFixed(0)} ms`);
    expect(progress).toEqual(Array.from({ length: 50 }, (_, i) => i + 1));
    expect(doc.pageStarts).toHaveLength(50);
    expect(doc.text).not.toContain('ACME Handbook');
    expect(ms).toBeLessThan(15_000);
  });

  it('refuses encrypted, damaged, empty, non-PDF and image-only files with one line', async () => {
    expect((await failure('encrypted.pdf', fixture('encrypted.pdf'))).message).toMatch(/is encrypted/);
    expect((await failure('empty.pdf', new Uint8Array())).message).toMatch(/is empty$/);
    expect((await failure('notes.pdf', bytes('just some text'))).message).toMatch(/is not a PDF/);
    expect((await failure('broken.pdf', bytes('%PDF-1.4\n1 0 obj\n<< /Type /Catalog'))).message).toMatch(/PDF/);
    // A page with no text operators: what a scan without OCR looks like to a text extractor.
    expect((await failure('scan.pdf', makePdf([[], []]))).message).toMatch(/has no text layer \(scanned\?\)/);
  });

  it('reads a PDF given without a file extension (e.g. standard input) by its header', async () => {
    const doc = await importDocument('standard input', fixture('travel-policy.pdf'));
    expect(doc.format).toBe('pdf');
    const mention = await importDocument('standard input', bytes('Every file starts with %PDF-1.4 and a comment.'));
    expect(mention.format).toBe('text');
  });

  it('takes a Node Buffer as well as a Uint8Array, and leaves the bytes usable', async () => {
    const buffer = readFileSync(new URL('../../e2e/files/travel-policy.pdf', import.meta.url));
    const fromBuffer = await importDocument('travel-policy.pdf', buffer);
    expect(fromBuffer.text).toBe((await importDocument('travel-policy.pdf', fixture('travel-policy.pdf'))).text);
    expect(buffer.byteLength).toBeGreaterThan(0); // not transferred (detached) to pdfjs
    const docx = readFileSync(new URL('../../e2e/files/expense-guide.docx', import.meta.url));
    expect((await importDocument('guide.docx', docx)).text.startsWith('# Expense Guide')).toBe(true);
  });
});

describe('DOCX', () => {
  it('becomes markdown: Word headings are # lines, the table a pipe table with its header row', async () => {
    const doc = await importDocument('expense-guide.docx', fixture('expense-guide.docx'));
    expect(doc).toMatchObject({ format: 'docx', suggestedStrategy: 'markdown', pageStarts: null });
    const lines = doc.text.split('\n');
    expect(lines.filter((l) => l.startsWith('#'))).toEqual(['# Expense Guide', '## Meals', '## Rates by city']);
    const table = lines.filter((l) => l.startsWith('|'));
    expect(table[0]).toBe('| City | Hotel rate | Allowance |');
    expect(table[1]).toMatch(/^\| -+ \| -+ \| -+ \|$/);
    expect(table.slice(2).map((l) => l.split('|')[1]!.trim())).toEqual(['Berlin', 'London', 'New York']);
    expect(doc.text).toContain('**Travel Policy**');
  });

  it('chunks with the markdown strategy: table chunks under their Word headings, each with the header row', async () => {
    const doc = await importDocument('expense-guide.docx', fixture('expense-guide.docx'));
    // Small enough that the table is split into row groups.
    const chunks = await chunk(doc.text, { strategy: 'markdown', size: 100, overlap: 0 });
    const tables = chunks.filter((c) => c.metadata?.contentType === 'table');
    expect(tables.length).toBeGreaterThan(1);
    for (const t of tables) {
      expect(t.metadata?.headingPath).toEqual(['Expense Guide', 'Rates by city']);
      expect(t.content.startsWith('| City | Hotel rate | Allowance |\n')).toBe(true);
    }
  });

  it('refuses a damaged package, a zip that is not a Word document, and an old .doc', async () => {
    expect((await failure('broken.docx', bytes('PK\u0003\u0004 not really a zip'))).message).toMatch(/DOCX|zip/);
    const zip = new JSZip();
    zip.file('hello.txt', 'hello');
    const notWord = await zip.generateAsync({ type: 'uint8array' });
    expect((await failure('archive.docx', notWord)).message).toMatch(/not a Word document/);
    const ole = new Uint8Array([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1, 0, 0]);
    expect((await failure('old.docx', ole)).message).toMatch(/old Word \.doc/);
    expect((await failure('old.doc', ole)).message).toMatch(/old Word \.doc/);
    expect((await failure('empty.docx', new Uint8Array())).message).toMatch(/is empty$/);
  });
});

describe('text formats', () => {
  it('decodes UTF-8 and keeps a byte order mark as U+FEFF at offset 0, with a note', async () => {
    const doc = await importDocument('notes.txt', new Uint8Array([0xef, 0xbb, 0xbf, ...bytes('Grüße\n')]));
    expect(doc).toMatchObject({ text: '\ufeffGrüße\n', format: 'text', name: 'notes.txt', pageStarts: null, suggestedStrategy: 'recursive', encoding: 'utf-8-bom' });
    expect(doc.notes).toHaveLength(1);
    expect(doc.notes[0]).toMatch(/byte-order mark/);
    const plain = await importDocument('notes.txt', bytes('Grüße\n'));
    expect(plain).toEqual({ text: 'Grüße\n', format: 'text', name: 'notes.txt', pageStarts: null, suggestedStrategy: 'recursive', encoding: 'utf-8', notes: [] });
  });

  it('suggests the structure strategy for markdown, HTML and code, with the code language', async () => {
    const cases: [string, string, string | undefined][] = [
      ['README.md', 'markdown', undefined],
      ['page.HTML', 'html', undefined],
      ['app.py', 'code', 'python'],
      ['view.tsx', 'code', 'tsx'],
      ['lib.rs', 'code', 'rust'],
      ['main.cpp', 'code', 'cpp'],
      ['util.h', 'code', 'c'],
      ['config.yaml', 'recursive', undefined],
    ];
    for (const [name, strategy, language] of cases) {
      const doc = await importDocument(name, bytes('x'));
      expect(doc.suggestedStrategy, name).toBe(strategy);
      expect(doc.language, name).toBe(language);
    }
  });

  it('keeps an empty text file (an empty document), refuses binary and non-UTF-8 files', async () => {
    expect((await importDocument('empty.txt', new Uint8Array())).text).toBe('');
    expect((await failure('photo.txt', new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0, 0]))).message).toMatch(/binary/);
    expect((await failure('latin1.txt', new Uint8Array([0x47, 0x72, 0xfc, 0xdf, 0x65]))).message).toMatch(/not valid UTF-8/);
  });
});

describe('caps on expanded sizes', () => {
  /** A zip package written with zlib: one DEFLATE entry per [name, content]. */
  async function zipOf(entries: [string, Uint8Array][]): Promise<Uint8Array> {
    const zlib = await import('node:zlib');
    const locals: Buffer[] = [];
    const centrals: Buffer[] = [];
    let offset = 0;
    for (const [name, data] of entries) {
      const packed = zlib.deflateRawSync(data, { level: 9 });
      const crc = zlib.crc32(data);
      const nameBytes = Buffer.from(name);
      const local = Buffer.alloc(30);
      local.writeUInt32LE(0x04034b50, 0);
      local.writeUInt16LE(20, 4);
      local.writeUInt16LE(8, 8);
      local.writeUInt32LE(crc, 14);
      local.writeUInt32LE(packed.length, 18);
      local.writeUInt32LE(data.length, 22);
      local.writeUInt16LE(nameBytes.length, 26);
      const central = Buffer.alloc(46);
      central.writeUInt32LE(0x02014b50, 0);
      central.writeUInt16LE(20, 4);
      central.writeUInt16LE(20, 6);
      central.writeUInt16LE(8, 10);
      central.writeUInt32LE(crc, 16);
      central.writeUInt32LE(packed.length, 20);
      central.writeUInt32LE(data.length, 24);
      central.writeUInt16LE(nameBytes.length, 28);
      central.writeUInt32LE(offset, 42);
      locals.push(local, nameBytes, packed);
      centrals.push(central, nameBytes);
      offset += 30 + nameBytes.length + packed.length;
    }
    const directory = Buffer.concat(centrals);
    const eocd = Buffer.alloc(22);
    eocd.writeUInt32LE(0x06054b50, 0);
    eocd.writeUInt16LE(entries.length, 8);
    eocd.writeUInt16LE(entries.length, 10);
    eocd.writeUInt32LE(directory.length, 12);
    eocd.writeUInt32LE(offset, 16);
    return new Uint8Array(Buffer.concat([...locals, directory, eocd]));
  }

  it('refuses a DOCX zip bomb (under 0.5 MB expanding to 120 MB) fast, before mammoth runs', async () => {
    const xml = Buffer.alloc(120_000_000, '<w:p><w:r><w:t>bomb</w:t></w:r></w:p>');
    const bomb = await zipOf([['[Content_Types].xml', bytes('<Types/>')], ['word/document.xml', xml]]);
    expect(bomb.length).toBeLessThan(500_000);
    const t0 = performance.now();
    const err = await failure('bomb.docx', bomb);
    expect(performance.now() - t0).toBeLessThan(1000);
    expect(err.message).toBe('“bomb.docx” would expand to 120.0 MB of document XML (the limit is 50.3 MB); refused as a possible zip bomb');
    // An ordinary DOCX still opens.
    expect((await importDocument('expense-guide.docx', fixture('expense-guide.docx'))).text).toContain('# Expense Guide');
  });

  it('refuses a PDF past the page cap or the text cap', async () => {
    const pages = Array.from({ length: 3 }, (_, i) => [{ x: 72, y: 700, text: `page ${i + 1} text`, size: 11 }]);
    const pdf = makePdf(pages);
    expect((await importDocument('ok.pdf', pdf)).text).toContain('page 3 text');
    const tooMany = await importDocument('many.pdf', pdf, { maxPdfPages: 2 }).catch((e: unknown) => e as ImportError);
    expect(tooMany).toBeInstanceOf(ImportError);
    expect((tooMany as ImportError).message).toBe('“many.pdf” has 3 pages; at most 2 are read');
    const tooLong = await importDocument('long.pdf', pdf, { maxPdfText: 20 }).catch((e: unknown) => e as ImportError);
    expect((tooLong as ImportError).message).toMatch(/has more than 20 characters of text \(reached on page 2\); split it first$/);
  });
});
