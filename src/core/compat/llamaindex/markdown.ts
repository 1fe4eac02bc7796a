import type { SplitSpan } from '../../registry';
import { joinedChunk, type Piece } from './pieces';

/**
 * LlamaIndex TS's MarkdownNodeParser (@llamaindex/core 0.6.23, node-parser), with source offsets. The TypeScript
 * package differs from the Python one (src/core/structure/llamaindexMarkdown.ts); compat mode `llamaindex` follows
 * the TypeScript package:
 *
 * - the document's text is trimmed first (TextNode.getContent: `${metadata}\n\n${text}`.trim(), metadata "" here);
 * - the text is split on "\n"; a line whose trimmed text starts with ``` toggles a code block;
 * - outside code, a line matching /^(#+)\s(.*)/ is a header: the section so far is emitted (trimmed — and emitted
 *   even when that leaves nothing, as an empty node), and the new section starts with the header's TEXT only
 *   (no "#" marks), then "\n";
 * - every other line is added with "\n";
 * - metadata: Header_1 ... Header_n, the titles of the header's ancestors (levels below it that are set) and its own.
 *
 * JavaScript's `.` stops at "\r", U+2028 and U+2029: the rest of such a header line is lost ("# Title\r\n" gives
 * "Title"). The span runs from the source offset of the node's first character to that of its last; `content`
 * holds the package's string where it differs from that slice.
 */
export interface LlamaindexTsMarkdownNode extends SplitSpan {
  metadata: Record<string, string>;
}

const HEADER = /^(#+)\s(.*)/;

export function splitLlamaindexTsMarkdown(text: string): LlamaindexTsMarkdownNode[] {
  const from = text.length - text.trimStart().length;
  const to = Math.max(from, text.length - (text.length - text.trimEnd().length));
  const nodes: LlamaindexTsMarkdownNode[] = [];
  let metadata: Record<string, string> = {};
  let inCode = false;
  let section: Piece[] = [];
  let sectionAt = from; // where an empty node is placed

  const emit = (): void => {
    const span = joinedChunk(text, section);
    if (span) nodes.push({ ...span, metadata });
    else nodes.push({ start: sectionAt, end: sectionAt, content: '', metadata }); // the package keeps empty nodes
  };
  // The "\n" that split() removed after a line ending at `end` (none after the last line: the package adds one).
  const newline = (end: number): Piece => (end < to ? { start: end, end: end + 1 } : { start: end, end, text: '\n' });

  let at = from;
  for (const line of text.slice(from, to).split('\n')) {
    const lineStart = at;
    const lineEnd = at + line.length;
    at = lineEnd + 1;
    if (line.trim().startsWith('```')) inCode = !inCode;
    const match = inCode ? null : HEADER.exec(line);
    if (match) {
      if (section.length > 0) emit();
      const level = match[1]!.length;
      const title = match[2]!;
      const next: Record<string, string> = {};
      for (let i = 1; i < level; i++) {
        const key = `Header_${i}`;
        if (key in metadata) next[key] = metadata[key]!;
      }
      next[`Header_${level}`] = title;
      metadata = next;
      const titleStart = lineStart + match[1]!.length + 1;
      section = [{ start: titleStart, end: titleStart + title.length }, newline(lineEnd)];
      // The title ends before a "\r" (or U+2028/9) that `.` does not match: that rest of the line is not in the node.
      sectionAt = titleStart;
      continue;
    }
    if (section.length === 0) sectionAt = lineStart;
    section.push({ start: lineStart, end: lineEnd }, newline(lineEnd));
  }
  if (section.length > 0) emit();
  return nodes;
}
