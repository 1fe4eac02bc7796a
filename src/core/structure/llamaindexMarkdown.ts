import { isWhitespaceCode } from '../measure';
import type { Range } from '../types';

/**
 * LlamaIndex's MarkdownNodeParser (llama_index/core/node_parser/file/markdown.py, the version with header_path),
 * re-implemented from its described behaviour:
 * - the text is split on "\n"; a line whose left-trimmed text starts with ``` toggles a code block (and is
 *   content);
 * - outside code, a line matching ^(#+)\s(.*) is a header: the section so far is emitted (stripped, when not
 *   blank), headers of the same or a deeper level are popped, and the new section starts with the header line
 *   rebuilt as "#" * level + " " + the text after the first whitespace;
 * - every node's header_path is "/" + the titles of its header's ancestors joined by "/" + "/", or "/" when it
 *   has none (a node does not list its own header).
 * Each node carries the best source span: its first to its last non-blank character in the source (the content
 * differs only where a header used a tab after the '#').
 */

export interface LlamaindexMarkdownNode extends Range {
  text: string;
  metadata: { header_path: string };
}

export interface LlamaindexMarkdownOptions {
  /** Default "/". */
  headerPathSeparator?: string;
}

/** Python's `.` matches any character but "\n" (a "\r" included), unlike JavaScript's. */
const HEADER = /^(#+)\s([^\n]*)/;

export function splitLlamaindexMarkdown(text: string, options: LlamaindexMarkdownOptions = {}): LlamaindexMarkdownNode[] {
  const sep = options.headerPathSeparator ?? '/';
  const nodes: LlamaindexMarkdownNode[] = [];
  const stack: { level: number; title: string }[] = [];
  let section = '';
  let sectionStart = 0;
  let inCode = false;
  let at = 0;

  const emit = (end: number): void => {
    const content = section.trim();
    if (!content) return;
    const ancestors = stack.slice(0, -1).map((h) => h.title);
    const path = ancestors.length > 0 ? sep + ancestors.join(sep) + sep : sep;
    let start = sectionStart;
    let stop = Math.min(end, text.length);
    while (start < stop && isWhitespaceCode(text.charCodeAt(start))) start++;
    while (stop > start && isWhitespaceCode(text.charCodeAt(stop - 1))) stop--;
    nodes.push({ text: content, metadata: { header_path: path }, start, end: stop });
  };

  for (const line of text.split('\n')) {
    const lineStart = at;
    at += line.length + 1;
    if (line.trimStart().startsWith('```')) {
      inCode = !inCode;
      section += `${line}\n`;
      continue;
    }
    const match = inCode ? null : HEADER.exec(line);
    if (match) {
      emit(lineStart);
      const level = match[1]!.length;
      while (stack.length > 0 && stack[stack.length - 1]!.level >= level) stack.pop();
      stack.push({ level, title: match[2]! });
      section = `${'#'.repeat(level)} ${match[2]!}\n`;
      sectionStart = lineStart;
      continue;
    }
    section += `${line}\n`;
  }
  emit(text.length);
  return nodes;
}
