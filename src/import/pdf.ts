/**
 * PDF text with pdfjs-dist. Loaded only when a PDF is opened (index.ts imports this module dynamically).
 *
 * Text layout: items are taken in content-stream order (the order the producer wrote them, which for ordinary
 * single-column documents is reading order); an item starts a new line when pdfjs marks the previous one with
 * hasEOL or its baseline moves; a vertical gap larger than 1.6 line heights is a paragraph break (blank line).
 * Pages are joined with a blank line ("\n\n"; a single "\n" where a sentence runs on), not a form feed: the
 * recursive and markdown splitters already treat a blank line as a paragraph boundary, and a form feed would
 * show as a stray control character in the editor. pageStarts records where each page's text begins.
 */
import type { TextItem } from 'pdfjs-dist/types/src/display/api';
import { ImportError, type ImportOptions } from './contract';
import { dropPageFurniture } from './pageFurniture';
import { pdfWorkerSource } from './pdfWorkerSource';

type Pdfjs = typeof import('pdfjs-dist');

const isNode = Boolean((globalThis as { process?: { versions?: { node?: string } } }).process?.versions?.node);
/** Node needs the legacy build (polyfills, in-process worker). A variable keeps bundlers from pulling it into the page. */
const NODE_BUILD = 'pdfjs-dist/legacy/build/pdf.mjs';

let loading: Promise<Pdfjs> | null = null;
function loadPdfjs(): Promise<Pdfjs> {
  loading ??= (async () => {
    if (isNode) return (await import(/* @vite-ignore */ NODE_BUILD)) as Pdfjs;
    const pdfjs = await import('pdfjs-dist');
    const source = pdfWorkerSource();
    if (source) pdfjs.GlobalWorkerOptions.workerSrc = source;
    return pdfjs;
  })();
  return loading;
}

/** The most pages read from one PDF, and the most characters of text taken from it. */
export const MAX_PDF_PAGES = 5_000;
export const MAX_PDF_TEXT = 32 * 1024 * 1024;

/** A vertical step above this many line heights starts a new paragraph. */
const PARAGRAPH_GAP = 1.6;

interface Line {
  text: string;
  y: number;
  height: number;
  /** Where the last item on the line ends (x + width), to tell words apart from glyph runs. */
  end: number;
}

/** Lines of one page from its text items; '' marks a paragraph break. */
export function pageLines(items: readonly TextItem[]): string[] {
  const lines: Line[] = [];
  let current: Line | null = null;
  let breakAfter = false;
  for (const item of items) {
    const x = item.transform[4] as number;
    const y = item.transform[5] as number;
    const height = Math.abs(item.height || (item.transform[3] as number) || 0);
    const str = item.str.replace(/[\u0000-\u0008\u000b-\u001f]/g, '');
    if (str !== '') {
      const sameLine = current !== null && !breakAfter && Math.abs(y - current.y) <= Math.max(1, 0.5 * Math.min(height || current.height, current.height || height));
      if (!sameLine || current === null) {
        current = { text: str, y, height, end: x + item.width };
        lines.push(current);
      } else {
        // A gap wider than a fifth of the font size between runs is a space the producer did not write.
        const gap = x - current.end;
        const needsSpace = gap > 0.2 * Math.max(height, 1) && !/\s$/.test(current.text) && !/^\s/.test(str);
        current.text += (needsSpace ? ' ' : '') + str;
        current.end = x + item.width;
        current.height = Math.max(current.height, height);
      }
      breakAfter = false;
    }
    if (item.hasEOL) breakAfter = true;
  }
  const out: string[] = [];
  lines.forEach((line, i) => {
    const prev = lines[i - 1];
    if (prev) {
      const step = prev.y - line.y;
      const lineHeight = Math.max(prev.height, line.height, 1);
      // A line above the previous one (a new column, a text box) is a break too.
      if (step > PARAGRAPH_GAP * lineHeight || step < -0.5 * lineHeight) out.push('');
    }
    out.push(line.text.replace(/\s+$/, ''));
  });
  return out;
}

/** Join a page's lines: single newlines inside paragraphs, one blank line between them, none at the edges. */
function pageText(lines: readonly string[]): string {
  return lines
    .join('\n')
    .replace(/\n{3,}/g, '\n\n')
    .replace(/^\s*\n/, '')
    .trim();
}

export interface PdfText {
  text: string;
  pageStarts: number[];
  notes: string[];
}

export async function importPdf(name: string, bytes: Uint8Array, options: ImportOptions): Promise<PdfText> {
  const pdfjs = await loadPdfjs();
  // pdfjs transfers the buffer to its worker (so it gets a copy, and the caller's bytes stay usable) and refuses
  // Node Buffers: a plain Uint8Array copy serves both.
  const task = pdfjs.getDocument({ data: new Uint8Array(bytes), isEvalSupported: false, disableFontFace: true, verbosity: 0 });
  let doc;
  try {
    doc = await task.promise;
  } catch (err) {
    await task.destroy().catch(() => undefined);
    const kind = (err as { name?: string }).name;
    if (kind === 'PasswordException') throw new ImportError(name, 'is encrypted (password protected); remove the password and open it again');
    if (kind === 'InvalidPDFException') throw new ImportError(name, 'is not a readable PDF (damaged or truncated)');
    throw new ImportError(name, `could not be read as a PDF: ${firstLine(err)}`);
  }
  try {
    const maxPages = Math.min(MAX_PDF_PAGES, options.maxPdfPages ?? Infinity);
    const maxText = Math.min(MAX_PDF_TEXT, options.maxPdfText ?? Infinity);
    if (doc.numPages > maxPages) {
      throw new ImportError(name, `has ${doc.numPages.toLocaleString('en-US')} pages; at most ${maxPages.toLocaleString('en-US')} are read`);
    }
    const pages: string[][] = [];
    let textLength = 0;
    for (let n = 1; n <= doc.numPages; n++) {
      const page = await doc.getPage(n);
      const content = await page.getTextContent();
      const lines = pageLines(content.items.filter((item): item is TextItem => 'str' in item));
      pages.push(lines);
      page.cleanup();
      for (const line of lines) textLength += line.length + 1;
      if (textLength > maxText) {
        throw new ImportError(name, `has more than ${maxText.toLocaleString('en-US')} characters of text (reached on page ${n}); split it first`);
      }
      options.onProgress?.(n, doc.numPages);
    }
    const notes: string[] = [];
    let kept = pages;
    if (options.dropPageFurniture) {
      const furniture = dropPageFurniture(pages);
      kept = furniture.pages;
      notes.push(
        furniture.dropped > 0
          ? `Dropped ${furniture.dropped} repeated header/footer line${furniture.dropped === 1 ? '' : 's'} (${furniture.examples.map((e) => `“${e}”`).join(', ')}).`
          : 'No repeated page headers or footers found.',
      );
    }
    const texts = kept.map(pageText);
    if (texts.every((t) => t === '')) throw new ImportError(name, 'has no text layer (scanned?); run OCR on it first');
    let text = '';
    const pageStarts: number[] = [];
    for (const pageTextValue of texts) {
      // An empty page starts where the next text begins; no separator is added for it.
      if (text !== '' && pageTextValue !== '') text += continuesSentence(text, pageTextValue) ? '\n' : '\n\n';
      pageStarts.push(text.length);
      text += pageTextValue;
    }
    notes.unshift(`${doc.numPages} page${doc.numPages === 1 ? '' : 's'} of text from the PDF.`);
    const empty = texts.filter((t) => t === '').length;
    if (empty > 0) notes.push(`${empty} page${empty === 1 ? ' has' : 's have'} no text (scanned images are not read).`);
    return { text, pageStarts, notes };
  } catch (err) {
    if (err instanceof ImportError) throw err;
    throw new ImportError(name, `could not be read as a PDF: ${firstLine(err)}`);
  } finally {
    await doc.destroy();
  }
}

/**
 * A sentence that runs over the page break (the page ends without closing punctuation and the next one starts
 * in lower case) is joined with a single newline, so the paragraph stays one paragraph for the splitters.
 */
function continuesSentence(before: string, after: string): boolean {
  return !/[.!?:;)"'\u201d\u2019]\s*$/.test(before) && /^\p{Ll}/u.test(after);
}

function firstLine(err: unknown): string {
  return (err instanceof Error ? err.message : String(err)).split('\n')[0] ?? '';
}
