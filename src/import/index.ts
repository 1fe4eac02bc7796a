/**
 * Import: turns a file's bytes into the text Chunkscope chunks, in the browser (main thread or a worker) and in
 * Node (the CLI). Text formats are decoded here; PDF (pdfjs-dist) and DOCX (mammoth) live in their own modules
 * and are loaded with a dynamic import only when such a file is opened, so the page never pays for them otherwise.
 */

import { BASE_DEFAULTS } from '../core/optionTable';
import { STRATEGIES } from '../core/strategies';
import type { StrategyName } from '../core/types';
import { ImportError, type ImportOptions } from './contract';
import { DecodeError, decodeDocumentBytes, type DecodedDocument, type DocumentEncoding } from './decode';

export { ImportError, type ImportOptions } from './contract';
export { DecodeError, createTextSniffer, decodeDocumentBytes, detectEncoding, encodingNotes, type DecodedDocument, type DocumentEncoding } from './decode';

export type ImportFormat = 'text' | 'markdown' | 'html' | 'code' | 'pdf' | 'docx';
export type CodeLanguage = 'python' | 'javascript' | 'typescript' | 'tsx' | 'go' | 'java' | 'rust' | 'c' | 'cpp';

export interface ImportedDocument {
  text: string;
  format: ImportFormat;
  name: string;
  /** UTF-16 offset where each page starts (the first is 0); null for formats without pages. */
  pageStarts: number[] | null;
  /** The strategy whose description lists this format (`documentFormats`), else the default one. */
  suggestedStrategy: StrategyName;
  /** Source language, for code files the code strategy knows. */
  language?: CodeLanguage;
  /** Text formats: the encoding read (./decode: a BOM is kept as U+FEFF at offset 0); absent for PDF and DOCX. */
  encoding?: DocumentEncoding;
  /** Things the user should know (furniture lines dropped, images left out, converter warnings). */
  notes: string[];
}

const MARKDOWN = new Set(['md', 'markdown', 'mdown', 'mkd', 'mdx']);
const HTML = new Set(['html', 'htm', 'xhtml']);
/** Extensions of the languages the code strategy splits syntactically. */
const CODE: Record<string, CodeLanguage> = {
  py: 'python',
  pyi: 'python',
  js: 'javascript',
  mjs: 'javascript',
  cjs: 'javascript',
  jsx: 'javascript',
  ts: 'typescript',
  mts: 'typescript',
  cts: 'typescript',
  tsx: 'tsx',
  go: 'go',
  java: 'java',
  rs: 'rust',
  c: 'c',
  h: 'c',
  cc: 'cpp',
  cpp: 'cpp',
  cxx: 'cpp',
  hpp: 'cpp',
  hh: 'cpp',
  hxx: 'cpp',
};

function extensionOf(name: string): string {
  const base = name.slice(name.lastIndexOf('/') + 1);
  const dot = base.lastIndexOf('.');
  return dot > 0 ? base.slice(dot + 1).toLowerCase() : '';
}

const startsWith = (bytes: Uint8Array, magic: string) => magic.split('').every((c, i) => bytes[i] === c.charCodeAt(0));
/** PDF readers accept the header anywhere in the first 1024 bytes. */
function hasPdfHeader(bytes: Uint8Array): boolean {
  const head = String.fromCharCode(...bytes.subarray(0, 1024));
  return head.includes('%PDF-');
}

/** Which importer a file goes to: the extension decides; a PDF header decides for a name without a known one. */
function formatFor(name: string, bytes: Uint8Array): ImportFormat {
  const ext = extensionOf(name);
  if (ext === 'pdf') return 'pdf';
  if (ext === 'docx') return 'docx';
  if (MARKDOWN.has(ext)) return 'markdown';
  if (HTML.has(ext)) return 'html';
  // Own properties only: a file named x.constructor is text, not code.
  if (Object.hasOwn(CODE, ext)) return 'code';
  // Without an extension only a file that starts with the header is taken for a PDF (a text that mentions
  // "%PDF-" near its start stays text).
  if (ext === '' && startsWith(bytes, '%PDF-')) return 'pdf';
  return 'text';
}

/** Decode a text file by the one encoding rule (./decode); a file that is not text is one ImportError line. */
function decodeText(name: string, bytes: Uint8Array): DecodedDocument {
  try {
    return decodeDocumentBytes(bytes);
  } catch (err) {
    if (err instanceof DecodeError) throw new ImportError(name, err.reason);
    throw err;
  }
}

/** Import one file. Throws ImportError with a one-line message when the file cannot be read. */
export async function importDocument(name: string, bytes: Uint8Array, options: ImportOptions = {}): Promise<ImportedDocument> {
  const format = formatFor(name, bytes);
  if (format === 'pdf') {
    if (bytes.length === 0) throw new ImportError(name, 'is empty');
    if (!hasPdfHeader(bytes)) throw new ImportError(name, 'is not a PDF (no %PDF header)');
    const { importPdf } = await import('./pdf');
    const pdf = await importPdf(name, bytes, options);
    return { ...pdf, format, name, suggestedStrategy: strategyFor(format) };
  }
  if (format === 'docx') {
    if (bytes.length === 0) throw new ImportError(name, 'is empty');
    if (!startsWith(bytes, 'PK')) {
      // Word 97-2003 files are OLE compound documents (D0 CF 11 E0).
      if (bytes[0] === 0xd0 && bytes[1] === 0xcf && bytes[2] === 0x11 && bytes[3] === 0xe0) {
        throw new ImportError(name, 'is an old Word .doc file; save it as .docx first');
      }
      throw new ImportError(name, 'is not a DOCX (not a zip package)');
    }
    const { importDocx } = await import('./docx');
    const docx = await importDocx(name, bytes);
    return { ...docx, format, name, pageStarts: null, suggestedStrategy: strategyFor(format) };
  }
  const ext = extensionOf(name);
  if (ext === 'doc') throw new ImportError(name, 'is an old Word .doc file; save it as .docx first');
  const { text, encoding, notes } = decodeText(name, bytes);
  const base = { text, format, name, pageStarts: null, encoding, notes };
  const suggested = { ...base, suggestedStrategy: strategyFor(format) };
  return format === 'code' ? { ...suggested, language: CODE[ext] } : suggested;
}

/** Whether a file goes through the text decoder (./decode), not the PDF or DOCX reader: readers sniff such files as they read. */
export function decodesAsText(name: string, head: Uint8Array): boolean {
  const format = formatFor(name, head);
  return format !== 'pdf' && format !== 'docx' && extensionOf(name) !== 'doc';
}

/**
 * The strategy a document's name calls for (markdown for .md, html for .html, code for source files), null for
 * plain text — a sample carries its strategy this way, as an opened file does.
 */
export function structureStrategyForName(name: string | null): StrategyName | null {
  if (!name) return null;
  return STRATEGIES.find((s) => s.documentFormats?.includes(formatFor(name, new Uint8Array(0))))?.id ?? null;
}

/** The strategy suggested for a format: the one whose description lists it. */
function strategyFor(format: ImportFormat): StrategyName {
  return STRATEGIES.find((s) => s.documentFormats?.includes(format))?.id ?? BASE_DEFAULTS.strategy;
}

/** File name extensions the page's "Open file…" accepts (text formats, source files, PDF, DOCX). */
export const IMPORTABLE_EXTENSIONS: readonly string[] = [
  'txt',
  ...MARKDOWN,
  ...HTML,
  'xml',
  'json',
  'jsonl',
  'csv',
  'rst',
  'tex',
  ...Object.keys(CODE),
  'cs',
  'php',
  'rb',
  'scala',
  'swift',
  'kt',
  'sol',
  'proto',
  'css',
  'yaml',
  'yml',
  'toml',
  'sh',
  'pdf',
  'docx',
];

const KNOWN_EXTENSIONS = new Set(IMPORTABLE_EXTENSIONS);

/**
 * Whether a file of a folder is a document: its extension is one the page opens (not LICENSE, Makefile, .png). The one
 * rule for a folder, in `chunkscope eval DIR` and in the page's "Open folder…".
 */
export function isDocumentFile(name: string): boolean {
  const dot = name.lastIndexOf('.');
  return dot > 0 && KNOWN_EXTENSIONS.has(name.slice(dot + 1).toLowerCase());
}

/** Where pdfjs-dist's worker script is served from (the page sets it from a bundled `?url` asset). */
export { setPdfWorkerSource } from './pdfWorkerSource';
export { DEFAULT_MAX_BYTES, PAGE_MAX_FILE_BYTES, PAGE_MAX_PASTE_CHARS, formatBytes, fileTooLargeMessage, pasteRefusal } from './sizeLimit';
