/**
 * DOCX to markdown: mammoth turns the document into simple semantic HTML (Word heading styles become h1–h6,
 * tables stay tables), and htmlToMarkdown writes markdown from it, so the markdown strategy can split at the
 * headings. mammoth's convertToMarkdown is deprecated upstream, hence the HTML step. Loaded only when a DOCX
 * is opened (index.ts imports this module dynamically).
 */
import { ImportError } from './index';
import { htmlToMarkdown } from './htmlToMarkdown';
import { checkDocxExpansion } from './zipLimits';

interface MammothMessage {
  type: string;
  message: string;
}
interface Mammoth {
  convertToHtml(input: unknown, options?: unknown): Promise<{ value: string; messages: MammothMessage[] }>;
  images: { imgElement(convert: (image: { altText?: string }) => Promise<{ src: string }>): unknown };
}

export interface DocxText {
  text: string;
  notes: string[];
}

/** At most this many converter warnings are shown; the rest are counted. */
const MAX_WARNINGS = 3;

export async function importDocx(name: string, bytes: Uint8Array): Promise<DocxText> {
  checkDocxExpansion(name, bytes); // zip bombs are refused before mammoth inflates anything
  const module = (await import('mammoth')) as unknown as Mammoth & { default?: Mammoth };
  const mammoth = module.default ?? module;
  let images = 0;
  let result;
  try {
    // Node's mammoth reads `buffer`, the browser build `arrayBuffer`; JSZip takes a Uint8Array for either.
    const data = new Uint8Array(bytes);
    result = await mammoth.convertToHtml(
      { buffer: data, arrayBuffer: data },
      {
        // Images are left out of the text (an embedding model cannot read them); only their alt text stays.
        convertImage: mammoth.images.imgElement(async () => {
          images++;
          return { src: '' };
        }),
        // A document must never make the importer read files next to it.
        externalFileAccess: false,
      },
    );
  } catch (err) {
    const message = (err instanceof Error ? err.message : String(err)).split('\n')[0] ?? '';
    if (/end of central directory|zip/i.test(message)) throw new ImportError(name, 'is not a DOCX (damaged zip package)');
    if (/main document part|word\/document\.xml/i.test(message)) throw new ImportError(name, 'is not a Word document (no word/document.xml)');
    if (/encrypt/i.test(message)) throw new ImportError(name, 'is encrypted');
    throw new ImportError(name, `could not be read as a DOCX: ${message}`);
  }
  const text = htmlToMarkdown(result.value);
  if (text.trim() === '') throw new ImportError(name, 'has no text');
  const notes = ['Converted from DOCX to markdown (headings, lists and tables kept).'];
  if (images > 0) notes.push(`${images} image${images === 1 ? '' : 's'} left out (alt text kept).`);
  const warnings = result.messages.filter((m) => m.type === 'warning' || m.type === 'error');
  for (const w of warnings.slice(0, MAX_WARNINGS)) notes.push(`Converter: ${w.message.split('\n')[0]}`);
  if (warnings.length > MAX_WARNINGS) notes.push(`…and ${warnings.length - MAX_WARNINGS} more converter messages.`);
  return { text, notes };
}
