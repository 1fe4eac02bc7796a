import { Parser } from 'htmlparser2';

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

const PARAGRAPH_BREAK = '\u0000P';
const LINE_BREAK = '\u0000L';

export function htmlVisibleText(html: string, preformatted = false): string {
  const parts: string[] = [];
  let dropped = 0;
  let pre = preformatted ? 1 : 0;
  let cellInRow = 0;
  const parser = new Parser(
    {
      onopentag(name) {
        if (DROPPED.has(name)) dropped++;
        if (dropped > 0) return;
        if (name === 'pre') pre++;
        if (PARAGRAPHS.has(name)) parts.push(PARAGRAPH_BREAK);
        else if (LINES.has(name)) parts.push(LINE_BREAK);
        if (name === 'tr') cellInRow = 0;
        if (name === 'td' || name === 'th') {
          if (cellInRow > 0) parts.push(' | ');
          cellInRow++;
        }
      },
      onclosetag(name) {
        if (DROPPED.has(name)) {
          dropped = Math.max(0, dropped - 1);
          return;
        }
        if (dropped > 0) return;
        if (name === 'pre') pre = Math.max(preformatted ? 1 : 0, pre - 1);
        if (PARAGRAPHS.has(name)) parts.push(PARAGRAPH_BREAK);
        else if (LINES.has(name) && name !== 'br') parts.push(LINE_BREAK);
      },
      ontext(data) {
        if (dropped > 0) return;
        parts.push(pre > 0 ? data.replace(/\r\n?/g, '\n') : data.replace(/\s+/g, ' '));
      },
    },
    { decodeEntities: true },
  );
  parser.end(html);
  // Breaks: the strongest of a run wins; spaces around breaks and at the ends go.
  return parts
    .join('')
    .replace(/[ \t]*(?:\u0000[PL][ \t]*)+/g, (run) => (run.includes(PARAGRAPH_BREAK) ? '\n\n' : '\n'))
    .replace(/^\s+|\s+$/g, '');
}
