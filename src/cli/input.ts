/** Input handling for the CLI: numbers, escapes in separators, and telling text from binary. */
import { DecodeError, decodeDocumentBytes, ImportError, importDocument, type DecodedDocument, type ImportedDocument } from '../import/index';

export class CliError extends Error {
  override name = 'CliError';
}

export function parseWholeNumber(flag: string, raw: string): number {
  if (!/^-?\d+$/.test(raw.trim())) throw new CliError(`${flag} must be a whole number (got "${raw}")`);
  return Number(raw);
}

export function parseDecimal(flag: string, raw: string): number {
  if (!/^[-+]?(\d+\.?\d*|\.\d+)(e[-+]?\d+)?$/i.test(raw.trim())) throw new CliError(`${flag} must be a number (got "${raw}")`);
  return Number(raw);
}

const ESCAPES: Record<string, string> = { n: '\n', r: '\r', t: '\t', '\\': '\\', '0': '\0' };

/** Shells pass "\n" as two characters; read the usual escapes so `--separator "\n\n"` means a blank line. */
export function parseEscapes(raw: string): string {
  return raw.replace(/\\(u\{[0-9a-fA-F]{1,6}\}|u[0-9a-fA-F]{4}|.)/g, (whole, esc: string) => {
    if (esc.startsWith('u')) {
      const hex = esc.startsWith('u{') ? esc.slice(2, -1) : esc.slice(1);
      const cp = parseInt(hex, 16);
      if (cp > 0x10ffff) throw new CliError(`invalid escape "${whole}" in a separator`);
      return String.fromCodePoint(cp);
    }
    return ESCAPES[esc] ?? whole;
  });
}

/**
 * Decode a text file by the shared rule (src/import/decode.ts: a BOM is kept as U+FEFF at offset 0, UTF-16 with a
 * BOM is read); a file that is not text is one CliError line naming it.
 */
export function decodeText(bytes: Uint8Array, name: string): DecodedDocument {
  try {
    return decodeDocumentBytes(bytes);
  } catch (err) {
    if (err instanceof DecodeError) throw new CliError(`"${name}" ${err.reason}`);
    throw err;
  }
}

/**
 * Read an input file through the importer: text files as decodeText does, PDF (text with page starts) and DOCX
 * (markdown). A file that cannot be read is one CliError line. `name` is the path, or "standard input" (a PDF
 * on standard input is recognised by its header).
 */
export async function importInput(bytes: Uint8Array, name: string, options: { dropPageFurniture?: boolean } = {}): Promise<ImportedDocument> {
  try {
    return await importDocument(name, bytes, { dropPageFurniture: options.dropPageFurniture });
  } catch (err) {
    if (err instanceof ImportError) throw new CliError(err.message);
    throw err;
  }
}
