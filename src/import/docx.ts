/**
 * DOCX to markdown: mammoth turns the document into simple semantic HTML (Word heading styles become h1–h6,
 * tables stay tables), and htmlToMarkdown writes markdown from it, so the markdown strategy can split at the
 * headings. mammoth's convertToMarkdown is deprecated upstream, hence the HTML step. Loaded only when a DOCX
 * is opened (index.ts imports this module dynamically).
 */
import { ImportError } from './contract';
import { htmlToMarkdown } from './htmlToMarkdown';
import { checkDocxExpansion } from './zipLimits';

export interface MammothMessage {
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

/** At most this many style names are named in the summary; the rest are counted. */
const MAX_NAMED_STYLES = 3;

/**
 * mammoth's warnings in one line. Nearly all are Word styles it has no mapping for ("Unrecognised paragraph style:
 * 'Title' (Style ID: Title)"): formatting, not text, is lost; they are named once, the rest counted.
 */
export function summariseConverterMessages(messages: readonly MammothMessage[]): string | null {
  const warnings = messages.filter((m) => m.type === 'warning' || m.type === 'error');
  if (warnings.length === 0) return null;
  const styles = new Set<string>();
  let other = 0;
  let firstOther = '';
  for (const w of warnings) {
    const style = /^Unrecognised (?:paragraph|run|table|numbering) style: '([^']*)'/.exec(w.message);
    if (style) styles.add(style[1]!);
    else if (other++ === 0) firstOther = w.message.split('\n')[0]!.slice(0, 80);
  }
  const parts: string[] = [];
  if (styles.size > 0) {
    const named = [...styles].slice(0, MAX_NAMED_STYLES).map((n) => `“${n}”`).join(', ');
    const more = styles.size > MAX_NAMED_STYLES ? ` and ${styles.size - MAX_NAMED_STYLES} more` : '';
    parts.push(`${styles.size} Word style${styles.size === 1 ? '' : 's'} without a markdown equivalent (${named}${more}) kept as plain paragraphs`);
  }
  if (other > 0) parts.push(`${other} other converter message${other === 1 ? '' : 's'} (first: ${firstOther})`);
  return `${parts.join('; ')}.`;
}

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
  const summary = summariseConverterMessages(result.messages);
  if (summary) notes.push(summary);
  return { text, notes };
}
