import { decodeHTML } from 'entities';
import { Parser } from 'htmlparser2';
import type { Range } from '../types';

/**
 * The text of an HTML fragment as a pipeline would index it: tags removed, entities decoded, `<head>`, `<script>`,
 * `<style>` and `<template>` dropped; block elements on lines of their own (a blank line between paragraphs,
 * headings, sections; one line per list item and table row, cells joined by " | "; `<br>` a line break);
 * whitespace collapsed except inside `<pre>` (or when the whole fragment is preformatted code).
 */

const DROPPED = new Set(['head', 'script', 'style', 'template', 'noscript']);
/** Elements that open and close a paragraph-like block: a blank line around them. */
const PARAGRAPHS = new Set([
  'address', 'article', 'aside', 'blockquote', 'body', 'details', 'dialog', 'div', 'dl', 'fieldset', 'figcaption',
  'figure', 'footer', 'form', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'header', 'hgroup', 'hr', 'main', 'menu', 'nav',
  'ol', 'p', 'pre', 'section', 'summary', 'table', 'ul', 'caption', 'thead', 'tbody', 'tfoot',
]);
/** Elements on a line of their own. */
const LINES = new Set(['li', 'tr', 'dt', 'dd', 'br', 'option']);

/** Whitespace other than a single space between words. */
const NEEDS_COLLAPSE = /\s\s|[^\S ]/;
const PARAGRAPH_BREAK = '\u0000P';
const LINE_BREAK = '\u0000L';

/** Collects text and breaks from a stream of open tags, close tags and (decoded) text. */
class TextCollector {
  private readonly parts: string[] = [];
  private dropped = 0;
  private pre: number;
  private cellInRow = 0;
  constructor(private readonly preformatted: boolean) {
    this.pre = preformatted ? 1 : 0;
  }
  open(name: string): void {
    if (DROPPED.has(name)) this.dropped++;
    if (this.dropped > 0) return;
    if (name === 'pre') this.pre++;
    if (PARAGRAPHS.has(name)) this.parts.push(PARAGRAPH_BREAK);
    else if (LINES.has(name)) this.parts.push(LINE_BREAK);
    if (name === 'tr') this.cellInRow = 0;
    if (name === 'td' || name === 'th') {
      if (this.cellInRow > 0) this.parts.push(' | ');
      this.cellInRow++;
    }
  }
  close(name: string): void {
    if (DROPPED.has(name)) {
      this.dropped = Math.max(0, this.dropped - 1);
      return;
    }
    if (this.dropped > 0) return;
    if (name === 'pre') this.pre = Math.max(this.preformatted ? 1 : 0, this.pre - 1);
    if (PARAGRAPHS.has(name)) this.parts.push(PARAGRAPH_BREAK);
    else if (LINES.has(name) && name !== 'br') this.parts.push(LINE_BREAK);
  }
  text(data: string): void {
    if (this.dropped > 0 || data === '') return;
    if (this.pre > 0) this.parts.push(data.includes('\r') ? data.replace(/\r\n?/g, '\n') : data);
    // Collapse whitespace runs; most text has single spaces only, so look before replacing.
    else this.parts.push(NEEDS_COLLAPSE.test(data) ? data.replace(/\s+/g, ' ') : data);
  }
  /** Breaks: the strongest of a run wins; spaces around breaks and at the ends go. */
  result(): string {
    return this.parts
      .join('')
      .replace(/[ \t]*(?:\u0000[PL][ \t]*)+/g, (run) => (run.includes(PARAGRAPH_BREAK) ? '\n\n' : '\n'))
      .trim();
  }
}

/** The visible text of any HTML string (parsed with htmlparser2). */
export function htmlVisibleText(html: string, preformatted = false): string {
  const out = new TextCollector(preformatted);
  const parser = new Parser(
    { onopentag: (name) => out.open(name), onclosetag: (name) => out.close(name), ontext: (data) => out.text(data) },
    { decodeEntities: true },
  );
  parser.end(html);
  return out.result();
}

const TAG_NAME = /^<(\/?)([A-Za-z][A-Za-z0-9-]*)/;
const STRAY_TAG = /<\/?[A-Za-z][^<>]*>|<!--[\s\S]*?-->/g;

/**
 * The visible text of `[start, end)` of a document whose tags and comments (`markup`: sorted, disjoint, from the
 * outline's parse) are already known: no second parse, so a chunk's content costs one pass over its span. Text
 * between tags is the source decoded (entities 8, as htmlparser2 decodes it).
 */
export function spanVisibleText(text: string, span: Range, markup: readonly Range[], preformatted = false): string {
  const out = new TextCollector(preformatted);
  // The first markup range ending after the span's start (ends are sorted: the ranges are disjoint).
  let lo = 0;
  let hi = markup.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (markup[mid]!.end <= span.start) lo = mid + 1;
    else hi = mid;
  }
  const decoded = (raw: string): string => (raw.includes('&') ? decodeHTML(raw) : raw);
  const tag = (source: string): void => {
    const found = TAG_NAME.exec(source);
    if (!found) return; // a comment or the doctype
    const name = found[2]!.toLowerCase();
    if (found[1] === '/') out.close(name);
    else {
      out.open(name);
      // A void or self-closed element closes at once (only what the collector tracks matters: br, hr).
      if (source.endsWith('/>') || name === 'hr') out.close(name);
    }
  };
  const textBetween = (a: number, b: number): void => {
    if (b <= a) return;
    const raw = text.slice(a, b);
    if (!raw.includes('<')) {
      out.text(decoded(raw));
      return;
    }
    // Tags the outline's parse did not report (a stray closing tag): still tags, not text.
    let from = 0;
    for (const m of raw.matchAll(STRAY_TAG)) {
      out.text(decoded(raw.slice(from, m.index)));
      // As htmlparser2 does: a stray closing tag is ignored, but </p> and </br> (which open what they close).
      if (/^<\/(p|br)\b/i.test(m[0])) tag(m[0]);
      from = m.index + m[0].length;
    }
    out.text(decoded(raw.slice(from)));
  };
  let at = span.start;
  for (let i = lo; i < markup.length && markup[i]!.start < span.end; i++) {
    const m = markup[i]!;
    textBetween(at, Math.min(m.start, span.end));
    at = Math.max(at, m.end);
    tag(text.slice(m.start, m.end));
  }
  textBetween(at, span.end);
  return out.result();
}
