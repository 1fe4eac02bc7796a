import { STRATEGIES, STRATEGY_NAMES } from '../strategies';
import type { ChunkOptions, CompatMode, StrategyName } from '../types';
import { UNIT_NAMES } from '../units';

/**
 * Re-import of a Chunkscope JSON or JSONL export (issue 4, item 11): the chunks carry their exact source offsets
 * and `text === source.slice(start, end)`, so the document is rebuilt by writing each chunk's text at its start.
 * Characters no chunk covers (whitespace a splitter dropped between chunks) are not in the file: they become
 * spaces and are counted, so the page can say so. A document whose chunks cover it comes back exactly, and
 * chunking it again with the same configuration gives the same chunks.
 */
export interface ChunkExportImport {
  document: string;
  /** Runs of characters no chunk covered, filled with spaces. */
  gaps: number;
  /** How many characters those runs hold. */
  gapChars: number;
  chunks: number;
  /** What the chunks' metadata says about how they were made (strategy, compat, unit). */
  options: Pick<ChunkOptions, 'strategy' | 'compat' | 'unit'>;
}

interface ExportedChunk {
  start: number;
  end: number;
  text: string;
  metadata?: Record<string, unknown>;
}

/**
 * The largest document a re-import rebuilds, in UTF-16 characters (16 MiB). An export whose chunks reach past it
 * (a crafted file with one chunk at offset 250,000,000) is refused with a message, before anything is built.
 */
export const MAX_REIMPORT_LENGTH = 16 * 1024 * 1024;

function isExportedChunk(value: unknown): value is ExportedChunk {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const v = value as Record<string, unknown>;
  return (
    Number.isInteger(v.start) &&
    Number.isInteger(v.end) &&
    typeof v.text === 'string' &&
    typeof v.content === 'string' &&
    Number.isInteger(v.index) &&
    typeof v.id === 'string' &&
    (v.start as number) >= 0 &&
    (v.end as number) >= (v.start as number) &&
    (v.end as number) - (v.start as number) === (v.text as string).length &&
    (v.metadata === undefined || (typeof v.metadata === 'object' && v.metadata !== null))
  );
}

/** The chunk objects of a JSON array or a JSONL file, or null when the text is neither. */
function readChunks(text: string): unknown[] | null {
  const trimmed = text.trim();
  if (trimmed.startsWith('[')) {
    try {
      const value: unknown = JSON.parse(trimmed);
      return Array.isArray(value) ? value : null;
    } catch {
      return null;
    }
  }
  if (!trimmed.startsWith('{')) return null;
  const items: unknown[] = [];
  for (const line of trimmed.split('\n')) {
    if (line.trim() === '') continue;
    try {
      items.push(JSON.parse(line));
    } catch {
      return null;
    }
  }
  return items;
}

/**
 * The document a Chunkscope chunk export was made from, or null when `text` is not such an export (any other
 * JSON opens as a document as before) or when its chunks disagree about a character they share. Throws an Error with
 * a one-line message for an export whose chunks reach past MAX_REIMPORT_LENGTH.
 */
export function parseChunkExport(text: string): ChunkExportImport | null {
  const items = readChunks(text);
  if (!items || items.length === 0 || !items.every(isExportedChunk)) return null;
  const chunks = items as ExportedChunk[];
  const length = chunks.reduce((max, c) => Math.max(max, c.end), 0);
  if (length > MAX_REIMPORT_LENGTH) {
    throw new Error(
      `its chunks reach offset ${length.toLocaleString('en-US')}; a chunk export is rebuilt up to ${MAX_REIMPORT_LENGTH.toLocaleString('en-US')} characters`,
    );
  }

  // Write each chunk's new characters in start order, then check that every chunk reads back from the result
  // (overlapping chunks must agree on the characters they share).
  const order = [...chunks].sort((a, b) => a.start - b.start || a.end - b.end);
  const parts: string[] = [];
  let covered = 0; // everything before this offset is written
  let gaps = 0;
  let gapChars = 0;
  for (const c of order) {
    if (c.start > covered) {
      parts.push(' '.repeat(c.start - covered));
      gaps++;
      gapChars += c.start - covered;
      covered = c.start;
    }
    if (c.end > covered) {
      parts.push(c.text.slice(covered - c.start));
      covered = c.end;
    }
  }
  const document = parts.join('');
  if (!chunks.every((c) => document.slice(c.start, c.end) === c.text)) return null;
  return { document, gaps, gapChars, chunks: chunks.length, options: optionsOf(chunks) };
}

/** The compat modes a chunk's metadata may name: 'none' and every mode a registered strategy declares. */
const COMPAT_MODES: readonly string[] = ['none', ...new Set(STRATEGIES.flatMap((s) => s.compat))];

/** Strategy, compat and unit as every chunk's metadata states them (left out when the chunks disagree). */
function optionsOf(chunks: readonly ExportedChunk[]): ChunkExportImport['options'] {
  const agreed = (key: string): unknown => {
    const first = chunks[0]!.metadata?.[key];
    return chunks.every((c) => c.metadata?.[key] === first) ? first : undefined;
  };
  const options: ChunkExportImport['options'] = {};
  const strategy = agreed('strategy');
  if (typeof strategy === 'string' && (STRATEGY_NAMES as string[]).includes(strategy)) options.strategy = strategy as StrategyName;
  const compat = agreed('compat');
  if (typeof compat === 'string' && COMPAT_MODES.includes(compat)) options.compat = compat as CompatMode;
  const unit = agreed('unit');
  if (typeof unit === 'string' && (UNIT_NAMES as string[]).includes(unit)) options.unit = unit as ChunkOptions['unit'];
  return options;
}
