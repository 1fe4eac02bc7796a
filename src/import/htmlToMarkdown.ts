/**
 * Markdown from the HTML mammoth writes (h1–h6, p, strong/b, em/i, a, ul/ol/li, table/tr/td/th, br, img, sup,
 * sub, s). mammoth's own convertToMarkdown is deprecated (its README recommends converting its HTML), and a
 * general HTML-to-markdown library would be a dependency for a handful of tags, so this reads only that
 * well-formed, escaped subset: no DOM needed, so it runs in a worker and in Node.
 *
 * Escaping is deliberately light (the text is read by people and embedded by models): only what would change
 * the document's structure for the markdown splitter is escaped — a paragraph line starting with "#" (a heading),
 * a code fence, and "|" inside table cells.
 */

interface Element {
  tag: string;
  attrs: Record<string, string>;
  children: Node[];
}
type Node = Element | string;

const VOID = new Set(['br', 'img', 'hr']);
const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: '\u00a0' };

function decodeEntities(text: string): string {
  return text.replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (whole, body: string) => {
    if (body[0] === '#') {
      const cp = body[1] === 'x' || body[1] === 'X' ? parseInt(body.slice(2), 16) : parseInt(body.slice(1), 10);
      return cp > 0 && cp <= 0x10ffff ? String.fromCodePoint(cp) : whole;
    }
    return ENTITIES[body.toLowerCase()] ?? whole;
  });
}

function parseAttrs(source: string): Record<string, string> {
  const attrs: Record<string, string> = {};
  for (const m of source.matchAll(/([a-zA-Z_:][-\w:.]*)\s*=\s*"([^"]*)"/g)) attrs[m[1]!.toLowerCase()] = decodeEntities(m[2]!);
  return attrs;
}

/** A tree of the HTML; an unmatched closing tag is ignored, an unclosed element ends with its parent. */
function parseHtml(html: string): Element {
  const root: Element = { tag: '#root', attrs: {}, children: [] };
  const stack: Element[] = [root];
  for (const m of html.matchAll(/<(\/?)([a-zA-Z][a-zA-Z0-9]*)([^>]*?)(\/?)>|<!--[\s\S]*?-->|([^<]+|<)/g)) {
    const top = stack.at(-1)!;
    if (m[5] !== undefined) {
      top.children.push(decodeEntities(m[5]));
      continue;
    }
    if (m[2] === undefined) continue; // comment
    const tag = m[2].toLowerCase();
    if (m[1]) {
      const at = stack.map((e) => e.tag).lastIndexOf(tag);
      if (at > 0) stack.length = at;
      continue;
    }
    const element: Element = { tag, attrs: parseAttrs(m[3] ?? ''), children: [] };
    top.children.push(element);
    if (!VOID.has(tag) && !m[4]) stack.push(element);
  }
  return root;
}

/** Inline markdown of an element's children; `inTable` turns line breaks into spaces and escapes pipes. */
function inline(nodes: readonly Node[], inTable: boolean): string {
  let out = '';
  for (const node of nodes) {
    if (typeof node === 'string') {
      out += inTable ? node.replace(/\|/g, '\\|') : node;
      continue;
    }
    const inner = () => inline(node.children, inTable);
    switch (node.tag) {
      case 'strong':
      case 'b':
        out += wrapEmphasis(inner(), '**');
        break;
      case 'em':
      case 'i':
        out += wrapEmphasis(inner(), '*');
        break;
      case 'a': {
        const text = inner();
        const href = node.attrs.href;
        // Bookmarks (<a id=…>) carry no link; internal "#…" links point at nothing in the text.
        out += href && !href.startsWith('#') && text.trim() ? `[${text}](${href.replace(/[()\s]/g, (c) => '%' + c.charCodeAt(0).toString(16).toUpperCase().padStart(2, '0'))})` : text;
        break;
      }
      case 'br':
        out += inTable ? ' ' : '\n';
        break;
      case 'img':
        out += node.attrs.alt ? `[image: ${node.attrs.alt}]` : '';
        break;
      case 'p':
        // Paragraphs inside a table cell or list item: separated by a space (a cell is one line).
        out += (out && !/\s$/.test(out) ? ' ' : '') + inner();
        break;
      default:
        out += inner();
    }
  }
  return out;
}

/** "**x**" with surrounding spaces moved outside (markdown does not emphasise "** x**"). */
function wrapEmphasis(text: string, mark: string): string {
  const m = /^(\s*)([\s\S]*?)(\s*)$/.exec(text)!;
  return m[2] ? `${m[1]}${mark}${m[2]}${mark}${m[3]}` : text;
}

/** A paragraph line that would read as a heading or a code fence gets a backslash. */
function escapeBlockStarts(text: string): string {
  return text.replace(/^(\s{0,3})(#{1,6}(?=\s|$)|`{3,}|~{3,})/gm, '$1\\$2');
}

function list(element: Element, depth: number): string[] {
  const lines: string[] = [];
  let n = Number(element.attrs.start ?? 1);
  for (const item of element.children) {
    if (typeof item === 'string' || item.tag !== 'li') continue;
    const marker = element.tag === 'ol' ? `${n++}.` : '-';
    const text = inline(item.children.filter((c) => typeof c === 'string' || (c.tag !== 'ul' && c.tag !== 'ol')), false);
    lines.push(`${'  '.repeat(depth)}${marker} ${escapeBlockStarts(text.trim()).replace(/\n/g, '\n' + '  '.repeat(depth + 1))}`);
    for (const child of item.children) if (typeof child !== 'string' && (child.tag === 'ul' || child.tag === 'ol')) lines.push(...list(child, depth + 1));
  }
  return lines;
}

function rowsOf(element: Element): Element[][] {
  const rows: Element[][] = [];
  const visit = (node: Element) => {
    for (const child of node.children) {
      if (typeof child === 'string') continue;
      if (child.tag === 'tr') rows.push(child.children.filter((c): c is Element => typeof c !== 'string' && (c.tag === 'td' || c.tag === 'th')));
      else if (child.tag === 'thead' || child.tag === 'tbody' || child.tag === 'tfoot') visit(child);
    }
  };
  visit(element);
  return rows;
}

/** A GFM pipe table; the first row is the header row (Word tables have no separate header markup by default). */
function table(element: Element): string {
  const rows = rowsOf(element).map((cells) => cells.map((cell) => inline(cell.children, true).replace(/\s+/g, ' ').trim()));
  if (rows.length === 0) return '';
  const columns = Math.max(...rows.map((r) => r.length), 1);
  const line = (cells: string[]) => `| ${Array.from({ length: columns }, (_, i) => cells[i] ?? '').join(' | ')} |`;
  return [line(rows[0]!), line(Array.from({ length: columns }, () => '---')), ...rows.slice(1).map(line)].join('\n');
}

function blocks(nodes: readonly Node[]): string[] {
  const out: string[] = [];
  let pendingInline: Node[] = [];
  const flushInline = () => {
    const text = inline(pendingInline, false).trim();
    if (text) out.push(escapeBlockStarts(text));
    pendingInline = [];
  };
  for (const node of nodes) {
    if (typeof node === 'string' || !['h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'p', 'ul', 'ol', 'table', 'hr', 'div', 'blockquote'].includes(node.tag)) {
      pendingInline.push(node);
      continue;
    }
    flushInline();
    const heading = /^h([1-6])$/.exec(node.tag);
    if (heading) {
      const text = inline(node.children, false).replace(/\s+/g, ' ').trim();
      if (text) out.push(`${'#'.repeat(Number(heading[1]))} ${text}`);
    } else if (node.tag === 'p') {
      const text = inline(node.children, false).trim();
      if (text) out.push(escapeBlockStarts(text));
    } else if (node.tag === 'ul' || node.tag === 'ol') {
      const lines = list(node, 0);
      if (lines.length) out.push(lines.join('\n'));
    } else if (node.tag === 'table') {
      const text = table(node);
      if (text) out.push(text);
    } else if (node.tag === 'hr') {
      out.push('---');
    } else if (node.tag === 'blockquote') {
      const inner = blocks(node.children).join('\n\n');
      if (inner) out.push(inner.replace(/^/gm, '> '));
    } else {
      out.push(...blocks(node.children));
    }
  }
  flushInline();
  return out;
}

/** Markdown for mammoth's HTML: blocks separated by one blank line, ending without a trailing newline. */
export function htmlToMarkdown(html: string): string {
  return blocks(parseHtml(html).children).join('\n\n');
}
