import { isWhitespaceCode } from '../measure';
import type { Range } from '../types';

/**
 * LangChain Python's MarkdownHeaderTextSplitter (langchain_text_splitters/markdown.py), re-implemented from its
 * described behaviour:
 * - the text is split on "\n"; every line is stripped (Python str.strip) and loses its non-printable characters
 *   (Python's str.isprintable: control, format, separator characters other than the ASCII space — so a BOM or a
 *   tab inside a line disappears);
 * - a line starting with ``` (and holding only one ```) or ~~~ opens a fence that the next line starting with the
 *   same marker closes; fence lines are kept as they are, never read as headers;
 * - header markers are tried longest first; a line is a header when it starts with the marker and is the marker
 *   alone or has a space after it; its level is the number of '#'; headers of the same or a deeper level are
 *   popped from the stack, and metadata[name] = the text after the marker, trimmed;
 * - a header line or a blank line ends the current block; the header line is kept only when stripHeaders is false;
 * - unless returnEachLine, consecutive blocks with equal metadata are joined with "  \n"; with stripHeaders false a
 *   block whose last line is a header is also joined with a following block that has more metadata keys (the
 *   header's own content), which then gives the metadata.
 * Not reproduced: custom_header_patterns.
 *
 * Each document also carries the best source span: from the first non-blank character of its first line to the
 * last non-blank character of its last line (the content itself may differ: stripped lines, "  \n" joins).
 */

export interface LangchainMarkdownHeaderOptions {
  /** [marker, metadata key] pairs, e.g. [['#', 'Header 1'], ['##', 'Header 2']]. */
  headersToSplitOn: readonly (readonly [string, string])[];
  /** Default true. */
  stripHeaders?: boolean;
  /** Default false. */
  returnEachLine?: boolean;
  /** Add one-based start_line / end_line to the metadata (LangChain's include_line_numbers). Default false. */
  includeLineNumbers?: boolean;
}

export interface LangchainMarkdownDocument extends Range {
  content: string;
  metadata: Record<string, string | number>;
}

interface Block {
  lines: string[];
  metadata: Record<string, string>;
  startLine: number;
  endLine: number;
}

/** Python's str.isprintable is false for these categories (the ASCII space excepted). */
const NON_PRINTABLE = /[\p{Cc}\p{Cf}\p{Cs}\p{Co}\p{Cn}\p{Zl}\p{Zp}\p{Zs}]/gu;

/** Python's str.strip() whitespace: unlike JavaScript's \s it includes \x1c-\x1f and U+0085 but not U+FEFF. */
const PY_SPACE = '\\t\\n\\v\\f\\r\\x1c-\\x20\\x85\\xa0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000';
const PY_STRIP = new RegExp(`^[${PY_SPACE}]+|[${PY_SPACE}]+$`, 'g');

function pyStrip(s: string): string {
  return s.replace(PY_STRIP, '');
}

function printable(s: string): string {
  return s.replace(NON_PRINTABLE, (c) => (c === ' ' ? c : ''));
}

function sameMetadata(a: Record<string, string>, b: Record<string, string>): boolean {
  const ka = Object.keys(a);
  return ka.length === Object.keys(b).length && ka.every((k) => Object.prototype.hasOwnProperty.call(b, k) && a[k] === b[k]);
}

export function splitLangchainMarkdownHeaders(text: string, options: LangchainMarkdownHeaderOptions): LangchainMarkdownDocument[] {
  const stripHeaders = options.stripHeaders ?? true;
  const markers = [...options.headersToSplitOn].sort((a, b) => b[0].length - a[0].length);
  const lines = text.split('\n');
  const lineStarts: number[] = [];
  let at = 0;
  for (const line of lines) {
    lineStarts.push(at);
    at += line.length + 1;
  }
  const blocks = readBlocks(lines, markers, stripHeaders);
  const grouped = options.returnEachLine ? blocks : groupBlocks(blocks, stripHeaders);
  return grouped.map((block) => {
    const metadata: Record<string, string | number> = { ...block.metadata };
    if (options.includeLineNumbers) {
      metadata.start_line = block.startLine;
      metadata.end_line = block.endLine;
    }
    let start = lineStarts[block.startLine - 1]!;
    let end = lineStarts[block.endLine - 1]! + lines[block.endLine - 1]!.length;
    while (start < end && isWhitespaceCode(text.charCodeAt(start))) start++;
    while (end > start && isWhitespaceCode(text.charCodeAt(end - 1))) end--;
    return { content: block.lines.join('\n'), metadata, start, end };
  });
}

/** The line loop: fences, headers (the metadata stack) and blank lines cut the lines into blocks. */
function readBlocks(lines: readonly string[], markers: readonly (readonly [string, string])[], stripHeaders: boolean): Block[] {
  const blocks: Block[] = [];
  let current: string[] = [];
  let startLine: number | null = null;
  let endLine: number | null = null;
  let currentMetadata: Record<string, string> = {};
  const active: Record<string, string> = {};
  const stack: { level: number; name: string }[] = [];
  let inFence = false;
  let fence = '';

  const flush = (lineNumber: number): void => {
    if (current.length === 0) return;
    blocks.push({ lines: current, metadata: { ...currentMetadata }, startLine: startLine ?? lineNumber, endLine: endLine ?? lineNumber });
    current = [];
    startLine = null;
    endLine = null;
  };
  const keep = (lineNumber: number, line: string): void => {
    startLine ??= lineNumber;
    endLine = lineNumber;
    current.push(line);
  };

  lines.forEach((raw, index) => {
    const lineNumber = index + 1;
    const line = printable(pyStrip(raw));
    if (!inFence) {
      if (line.startsWith('```') && line.split('```').length === 2) {
        inFence = true;
        fence = '```';
      } else if (line.startsWith('~~~')) {
        inFence = true;
        fence = '~~~';
      }
    } else if (line.startsWith(fence)) {
      inFence = false;
      fence = '';
    }
    if (inFence) {
      keep(lineNumber, line);
      return;
    }

    const header = markers.find(([marker]) => line.startsWith(marker) && (line.length === marker.length || line[marker.length] === ' '));
    if (header) {
      const [marker, name] = header;
      const level = marker.split('#').length - 1;
      while (stack.length > 0 && stack[stack.length - 1]!.level >= level) delete active[stack.pop()!.name];
      stack.push({ level, name });
      active[name] = line.slice(marker.length).trim();
      flush(lineNumber);
      if (!stripHeaders) keep(lineNumber, line);
    } else if (line) {
      keep(lineNumber, line);
    } else {
      flush(lineNumber);
    }
    currentMetadata = { ...active };
  });
  flush(lines.length);
  return blocks;
}

/** Unless returnEachLine: consecutive blocks with equal metadata join (and a header's block with its content). */
function groupBlocks(blocks: readonly Block[], stripHeaders: boolean): Block[] {
  const grouped: Block[] = [];
  for (const block of blocks) {
    const last = grouped[grouped.length - 1];
    if (last && sameMetadata(last.metadata, block.metadata)) {
      last.lines = [`${last.lines.join('\n')}  \n${block.lines.join('\n')}`];
      last.endLine = block.endLine;
    } else if (
      last &&
      !stripHeaders &&
      Object.keys(last.metadata).length < Object.keys(block.metadata).length &&
      last.lines.join('\n').split('\n').pop()!.startsWith('#')
    ) {
      last.lines = [`${last.lines.join('\n')}  \n${block.lines.join('\n')}`];
      last.metadata = block.metadata;
      last.endLine = block.endLine;
    } else {
      grouped.push({ ...block, lines: [...block.lines] });
    }
  }
  return grouped;
}
