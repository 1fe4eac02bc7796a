import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { nodeLoadWasm } from '../../node/loadWasm';
import { isWhitespaceCode } from '../measure';
import { implementation as codeStrategy } from '../strategies/code/split';
import type { ResolvedOptions } from '../types';
import { getUnit } from '../units';
import { codeStructure, splitCode } from './codeSplit';
import type { CodeLanguageName } from '../strategies/code/languages';
import { CODE_LANGUAGE_NAMES, detectCodeLanguage, resolveCodeLanguage } from '../strategies/code/languages';
import type { StructureSpan } from './markdownSplit';

// Real grammars: the wasm files installed from npm, read by the Node loader.
const fixture = (name: string): string => readFileSync(new URL(`./fixtures/code/${name}`, import.meta.url), 'utf8');

async function split(text: string, language: CodeLanguageName, size: number, path: string | null = null, overlap = 0) {
  return splitCode(text, { language, size, overlap, unit: await getUnit('chars'), path, loadWasm: nodeLoadWasm });
}

/** The contract every code chunk keeps: exact offsets, in order, content = prefix + text, all code covered. */
function expectContract(text: string, spans: StructureSpan[]): void {
  let previous = { start: -1, end: -1 };
  for (const s of spans) {
    expect(s.start).toBeGreaterThanOrEqual(0);
    expect(s.end).toBeLessThanOrEqual(text.length);
    expect(s.start).toBeLessThan(s.end);
    expect(s.start).toBeGreaterThan(previous.start);
    expect(s.end).toBeGreaterThan(previous.end);
    expect(s.contentType).toBe('code');
    expect(s.content ?? text.slice(s.start, s.end)).toBe((s.prefix ?? '') + text.slice(s.start, s.end));
    // Chunks are trimmed: they start and end on code, not on blanks.
    expect(isWhitespaceCode(text.charCodeAt(s.start))).toBe(false);
    expect(isWhitespaceCode(text.charCodeAt(s.end - 1))).toBe(false);
    previous = s;
  }
  const covered = new Uint8Array(text.length);
  for (const s of spans) covered.fill(1, s.start, s.end);
  for (let i = 0; i < text.length; i++) {
    if (!covered[i] && !isWhitespaceCode(text.charCodeAt(i))) throw new Error(`character ${i} (${JSON.stringify(text[i])}) is in no chunk`);
  }
}

/** Whether a chunk's text is nothing but decorators, annotations, attributes, `template <...>` lines and comments. */
function onlyDecoration(own: string): boolean {
  const lines = own
    .replace(/\/\*[\s\S]*?\*\//g, '')
    .split(/\r?\n/)
    .map((l) => l.trim())
    .filter((l) => l !== '');
  return lines.every((l) => /^(@|#\[|#!\[|#\s|#$|\/\/|template\s*<)/.test(l));
}

/** The blanks between the start of the line and `at`. */
function indentOf(text: string, at: number): string {
  return text.slice(text.lastIndexOf('\n', at - 1) + 1, at);
}

/** [start of `first`, end of `last` after it): a definition located by its own text, independently of the parser. */
function rangeOf(text: string, first: string, last: string): { start: number; end: number } {
  const start = text.indexOf(first);
  expect(start, first).toBeGreaterThanOrEqual(0);
  const at = text.indexOf(last, start);
  expect(at, last).toBeGreaterThanOrEqual(0);
  return { start, end: at + last.length };
}

/** The one chunk holding the range whole; fails if a chunk cuts it. */
function holder(spans: StructureSpan[], r: { start: number; end: number }): StructureSpan {
  const cutting = spans.filter((s) => s.start < r.end && s.end > r.start && !(s.start <= r.start && s.end >= r.end));
  expect(cutting, 'chunks cutting the definition').toEqual([]);
  const holding = spans.filter((s) => s.start <= r.start && s.end >= r.end);
  expect(holding.length).toBeGreaterThanOrEqual(1);
  return holding[0]!;
}

interface LanguageCase {
  file: string;
  language: CodeLanguageName;
  path: string;
  /** Every top-level definition fits at this size: each must be whole. */
  topLevel: [string, string][];
  /** A container (class, impl, namespace) too large for `size`, its name, signature and members that fit. */
  container: { range: [string, string]; name: string; signature: string; members: [string, string, string][] };
  size: number;
  /** A size at which every top-level definition fits but the whole file does not. */
  wholeSize: number;
}

const CASES: LanguageCase[] = [
  {
    file: 'cart.py.txt',
    language: 'python',
    path: 'shop/cart.py',
    topLevel: [['@dataclass', 'quantity: int = 1'], ['# A cart of items', 'ensure_ascii=False)'], ['def load_cart', 'return cart'], ['def format_price', '€"']],
    container: {
      range: ['# A cart of items', 'ensure_ascii=False)'],
      name: 'Cart',
      signature: 'class Cart:',
      members: [['def add(', 'self.items.append(item)', 'add'], ['def größe(', 'for item in self.items)', 'größe'], ['def to_json', 'ensure_ascii=False)', 'to_json']],
    },
    size: 500,
    wholeSize: 1800,
  },
  {
    file: 'store.ts.txt',
    language: 'typescript',
    path: 'src/store.ts',
    topLevel: [['export interface Product', 'tags: string[];\n}'], ['/** Keeps products', 'return rows.length;\n  }\n}'], ['export function formatPrice', '${currency}`;\n}'], ['export enum Größe', "Groß = 'L',\n}"]],
    container: {
      range: ['/** Keeps products', 'return rows.length;\n  }\n}'],
      name: 'ProductStore',
      signature: 'export class ProductStore',
      members: [['add(product', 'tags: [...product.tags] });\n  }', 'add'], ['totalCents(', 'return total;\n  }', 'totalCents'], ['async loadFrom(', 'return rows.length;\n  }', 'loadFrom']],
    },
    size: 450,
    wholeSize: 1600,
  },
  {
    file: 'widget.tsx.txt',
    language: 'tsx',
    path: 'src/CartTable.tsx',
    topLevel: [['/** One row', '</tr>\n  );\n}'], ['export function CartTable', '</table>\n  );\n}'], ['export default function CartSummary', 'danke schön!</p>;\n}']],
    container: {
      range: ['export function CartTable', '</table>\n  );\n}'],
      name: 'CartTable',
      signature: 'export function CartTable({ lines }: { lines: CartLine[] })',
      members: [['const sorted = useMemo', '}, [lines, sortBy]);', '']],
    },
    size: 400,
    wholeSize: 800,
  },
  {
    file: 'queue.js.txt',
    language: 'javascript',
    path: 'lib/queue.js',
    topLevel: [['function sleep', 'setTimeout(resolve, ms));\n}'], ['/**\n * Runs jobs', 'return this.jobs.length;\n  }\n}'], ['function createQueue', 'return queue;\n}']],
    container: {
      range: ['/**\n * Runs jobs', 'return this.jobs.length;\n  }\n}'],
      name: 'JobQueue',
      signature: 'class JobQueue extends EventEmitter',
      members: [['constructor(name)', 'this.running = false;\n  }', 'constructor'], ['push(job)', 'this.run();\n  }', 'push'], ['get size()', 'return this.jobs.length;\n  }', 'size']],
    },
    size: 450,
    wholeSize: 1000,
  },
  {
    file: 'server.go.txt',
    language: 'go',
    path: 'inventory/inventory.go',
    topLevel: [['// Stock is', 'Quantity  int\n}'], ['// Add changes', 'return nil\n}'], ['// Total sums', 'return total, nil\n}'], ['func größe', 'return len(s) }']],
    container: {
      range: ['// Snapshot lists', 'return out\n}'],
      name: 'Snapshot',
      signature: 'func (inv *Inventory) Snapshot() []Stock',
      members: [['sort.Slice(out', '\t})', 'Snapshot']],
    },
    size: 400,
    wholeSize: 600,
  },
  {
    file: 'Library.java.txt',
    language: 'java',
    path: 'src/main/java/org/example/library/Library.java',
    topLevel: [['interface Notifier', 'String message);\n}']],
    container: {
      range: ['/**\n * A lending library', 'Optional.ofNullable(loans.get(isbn));\n    }\n}'],
      name: 'Library',
      signature: 'public class Library',
      members: [['/** Lends a book', 'return true;\n    }', 'lend'], ['@Override', 'return out.toString();\n    }', 'toString'], ['public List<Book> available()', 'return out;\n    }', 'available']],
    },
    size: 600,
    wholeSize: 2000,
  },
  {
    file: 'matrix.rs.txt',
    language: 'rust',
    path: 'src/matrix.rs',
    topLevel: [['/// A row-major', 'data: Vec<f64>,\n}'], ['impl fmt::Display for Matrix', 'Ok(())\n    }\n}'], ['impl Add for Matrix', 'data }\n    }\n}']],
    container: {
      range: ['impl Matrix {', 'Ok(out)\n    }\n}'],
      name: 'Matrix',
      signature: 'impl Matrix',
      members: [['/// A matrix of zeros.', 'rows * cols] }\n    }', 'zeros'], ['pub fn transpose', 'out\n    }', 'transpose'], ['pub fn try_mul', 'Ok(out)\n    }', 'try_mul']],
    },
    size: 700,
    wholeSize: 1500,
  },
  {
    file: 'ring.c.txt',
    language: 'c',
    path: 'src/ring.c',
    topLevel: [['typedef struct {', '} ring_t;'], ['/* Allocates a ring', 'return ring;\n}'], ['int ring_push', 'return RING_OK;\n}'], ['void ring_free', 'free(ring);\n    }\n}']],
    container: {
      range: ['/* Allocates a ring', 'return ring;\n}'],
      name: 'ring_new',
      signature: 'ring_t *ring_new(size_t capacity)',
      members: [['ring->data = calloc', 'return NULL;\n    }', 'ring_new']],
    },
    size: 250,
    wholeSize: 500,
  },
  {
    file: 'shapes.cpp.txt',
    language: 'cpp',
    path: 'src/shapes.cpp',
    topLevel: [['int main()', 'return geometry::totalArea(shapes) > 0 ? 0 : 1;\n}']],
    container: {
      range: ['namespace geometry {', '}  // namespace geometry'],
      name: 'geometry',
      signature: 'namespace geometry',
      members: [['class Circle', 'double radius_;\n};'], ['template <typename T>', 'return value;\n}'], ['double totalArea', 'return total;\n}']].map(
        ([a, b]) => [a!, b!, ''] as [string, string, string],
      ),
    },
    size: 450,
    wholeSize: 1400,
  },
];

describe('splitCode on a realistic file per language (real tree-sitter grammars)', () => {
  for (const c of CASES) {
    describe(`${c.language} (${c.file})`, () => {
      const text = fixture(c.file);
      const comment = c.language === 'python' ? '#' : '//';
      const pathLine = `${comment} file: ${c.path}\n`;

      it('parses without errors and keeps every top-level definition whole when it fits', async () => {
        const spans = await split(text, c.language, c.wholeSize, c.path);
        expectContract(text, spans);
        expect(spans.length).toBeGreaterThan(1);
        for (const [first, last] of c.topLevel) holder(spans, rangeOf(text, first, last));
        // Top-level chunks carry only the path line.
        for (const s of spans) expect(s.prefix).toBe(pathLine);
      });

      it('splits an oversize container at its members, which stay whole, with the path and signature prefix', async () => {
        const spans = await split(text, c.language, c.size, c.path);
        expectContract(text, spans);
        const container = rangeOf(text, c.container.range[0], c.container.range[1]);
        const inside = spans.filter((s) => s.start >= container.start && s.end <= container.end);
        expect(inside.length, 'chunks inside the container').toBeGreaterThan(1);
        // Nothing straddles the container's edges.
        expect(spans.filter((s) => s.start < container.start && s.end > container.start)).toEqual([]);
        for (const [first, last, name] of c.container.members) {
          const member = rangeOf(text, first, last);
          const chunk = holder(spans, member);
          if (name && chunk.start === member.start) expect(chunk.headingPath.slice(-2)).toEqual([c.container.name, name]);
        }
        for (const s of inside) {
          expect(s.headingPath).toContain(c.container.name);
          const showsHeader = s.start <= text.indexOf(c.container.signature, container.start);
          if (showsHeader) {
            expect(s.prefix).toBe(pathLine);
          } else {
            // The container's signature line (with its own indentation) follows the path line.
            expect(s.prefix?.startsWith(pathLine)).toBe(true);
            expect(s.prefix!.split('\n').map((l) => l.trim())).toContain(c.container.signature);
            expect(s.signature?.split('\n').map((l) => l.trim())).toContain(c.container.signature);
          }
          expect(s.content).toBe(s.prefix + text.slice(s.start, s.end));
          // The size covers the prefix.
          if (!s.oversize) expect(s.content!.length).toBeLessThanOrEqual(c.size);
        }
      });
    });
  }
});

describe('splitCode: cuts at line starts', () => {
  it('inside definitions chunks start at the first character of a line; brackets alone only when they could not join', async () => {
    for (const c of CASES) {
      const text = fixture(c.file);
      for (let size = 160; size <= 700; size += 60) {
        const spans = await split(text, c.language, size, c.path);
        expectContract(text, spans);
        spans.forEach((s, i) => {
          const own = text.slice(s.start, s.end);
          const where = `${c.file} at ${size}: ${JSON.stringify(own.slice(0, 40))}`;
          // Lines here are short enough to fit: no cut inside a line.
          expect(/^[ \t]*$/.test(text.slice(text.lastIndexOf('\n', s.start - 1) + 1, s.start)), where).toBe(true);
          if (i > 0 && /^[\s)}\];,]*$/.test(own)) {
            const previous = spans[i - 1]!;
            const lines = (previous.prefix ?? '').replace(/[ \t]+$/, '');
            expect(lines.length + s.end - previous.start, where).toBeGreaterThan(size);
          }
        });
      }
    }
  });
});

describe('splitCode: cutting inside definitions', () => {
  const text = fixture('cart.py.txt');

  it('cuts an oversize method at its statements, at line starts, and repeats the class and method signatures', async () => {
    const spans = await split(text, 'python', 300, 'shop/cart.py');
    expectContract(text, spans);
    const total = rangeOf(text, 'def total(', 'return math.floor(taxed * 100) / 100');
    const pieces = spans.filter((s) => s.start >= total.start && s.end <= total.end);
    expect(pieces.length).toBeGreaterThan(1);
    expect(pieces[0]!.start).toBe(total.start);
    // The chunk's first line keeps its indentation after the signature lines.
    expect(pieces[0]!.prefix).toBe('# file: shop/cart.py\nclass Cart:\n    ');
    for (const s of pieces) {
      expect(s.headingPath).toEqual(['Cart', 'total']);
      // Statements are whole lines: every chunk starts at the first non-blank character of its line.
      expect(/^[ \t]*$/.test(text.slice(text.lastIndexOf('\n', s.start - 1) + 1, s.start))).toBe(true);
      expect(s.content!.length).toBeLessThanOrEqual(300);
    }
    for (const s of pieces.slice(1)) {
      expect(s.prefix).toBe(`# file: shop/cart.py\nclass Cart:\n    def total(self, tax_rate: float = TAX_RATE) -> float:\n${indentOf(text, s.start)}`);
      expect(indentOf(text, s.start).length).toBeGreaterThanOrEqual(8);
      expect(s.signature).toBe('class Cart:\ndef total(self, tax_rate: float = TAX_RATE) -> float:');
    }
    // Cuts fall between lines: every chunk inside ends at the end of a line.
    for (const s of pieces) expect(['\n', undefined]).toContain(text[s.end]);
  });

  it('falls back to lines inside a leaf too large for a chunk (a long string), then to words', async () => {
    const lines = Array.from({ length: 40 }, (_, i) => `line ${i} of the text — ünïcödé 🧵`).join('\n');
    const source = `def doc():\n    return """${lines}"""\n\n\ndef after():\n    return 1\n`;
    const spans = await split(source, 'python', 120);
    expectContract(source, spans);
    for (const s of spans) if (!s.oversize) expect((s.content ?? '').length || s.end - s.start).toBeLessThanOrEqual(120);
    expect(spans.some((s) => s.oversize)).toBe(false);
    holder(spans, rangeOf(source, 'def after', 'return 1'));
    const inString = spans.filter((s) => s.start > source.indexOf('"""') && s.end < source.lastIndexOf('"""'));
    expect(inString.length).toBeGreaterThan(3);
    // Lines come whole while they fit: chunks inside the string start at a line start.
    for (const s of inString) expect(source[s.start - 1]).toBe('\n');
    // The string's first line goes with the code before it.
    expect(spans.some((s) => source.slice(s.start, s.end).startsWith('def doc():\n    return """line 0'))).toBe(true);
  });

  it('keeps doc comments and attributes with the definition after them', async () => {
    const text = fixture('matrix.rs.txt');
    const spans = await split(text, 'rust', 200, null);
    expectContract(text, spans);
    const docAndStruct = rangeOf(text, '/// A row-major', 'data: Vec<f64>,\n}');
    const chunk = holder(spans, docAndStruct);
    expect(chunk.start).toBe(docAndStruct.start);
    expect(chunk.headingPath).toEqual(['Matrix']);
  });

  // Each definition fits alone at the sizes below, not with what decorates it: the decorator must open the chunk
  // that holds the definition's header (and first members), never be a chunk of its own.
  const DECORATED: { language: CodeLanguageName; source: string; head: string; header: string; firstMember: string; end: string }[] = [
    {
      language: 'python',
      source: [
        'from dataclasses import dataclass',
        '',
        '',
        '@dataclass(frozen=True)',
        'class Line:',
        '    """One order line: a product, how many, and the unit price in minor units."""',
        '',
        '    sku: str',
        '    quantity: int',
        '    unit_price: int',
        '',
        '    def net(self) -> int:',
        '        """Quantity times unit price, before tax."""',
        '        return self.quantity * self.unit_price',
        '',
        '    def label(self) -> str:',
        '        return f"{self.quantity} x {self.sku} at {self.unit_price}"',
        '',
      ].join('\n'),
      head: '@dataclass(frozen=True)',
      header: 'class Line:',
      firstMember: 'sku: str',
      end: 'at {self.unit_price}"',
    },
    {
      language: 'rust',
      source: [
        'use std::fmt;',
        '',
        '/// A row-major matrix of 64-bit floats, stored in one vector.',
        '#[derive(Debug, Clone, PartialEq)]',
        'pub struct Matrix {',
        '    rows: usize,',
        '    cols: usize,',
        '    data: Vec<f64>,',
        '    label: Option<String>,',
        '    row_names: Vec<String>,',
        '    col_names: Vec<String>,',
        '}',
        '',
      ].join('\n'),
      head: '/// A row-major',
      header: 'pub struct Matrix {',
      firstMember: 'rows: usize,',
      end: 'col_names: Vec<String>,\n}',
    },
    {
      language: 'java',
      source: [
        'package shop;',
        '',
        '/** An order as stored: one row of the orders table, with its lines. */',
        '@Entity',
        '@Table(name = "orders")',
        'public class Order {',
        '    private long id;',
        '    private String customer;',
        '',
        '    public long total() {',
        '        return lines.stream().mapToLong(Line::net).sum();',
        '    }',
        '}',
        '',
      ].join('\n'),
      head: '/** An order as stored',
      header: 'public class Order {',
      firstMember: 'private long id;',
      end: '    }\n}',
    },
    {
      language: 'typescript',
      source: [
        'export class Widget {',
        '  size = 0;',
        '',
        "  @HostListener('window:resize', ['$event'])",
        '  onResize(event: UIEvent): void {',
        '    this.size = (event.target as Window).innerWidth;',
        '    this.layout();',
        '  }',
        '}',
        '',
      ].join('\n'),
      head: "@HostListener('window:resize', ['$event'])",
      header: 'onResize(event: UIEvent): void {',
      // The method's first statement does not fit with the decorator, the header and the class signature here.
      firstMember: '',
      end: 'this.layout();\n  }',
    },
    {
      language: 'cpp',
      source: [
        '#include <vector>',
        '',
        'template <typename T>',
        'class Stack {',
        ' public:',
        '  void push(const T& value) { items_.push_back(value); }',
        '  bool empty() const { return items_.empty(); }',
        ' private:',
        '  std::vector<T> items_;',
        '};',
        '',
      ].join('\n'),
      head: 'template <typename T>',
      header: 'class Stack {',
      firstMember: 'public:',
      end: 'items_;\n};',
    },
  ];

  for (const c of DECORATED) {
    it(`keeps a ${c.language} decorator with the definition it decorates when only the definition fits (${JSON.stringify(c.head)})`, async () => {
      const { source } = c;
      const headAt = source.indexOf(c.head);
      const headerAt = source.indexOf(c.header);
      const definitionEnd = source.indexOf(c.end, headerAt) + c.end.length;
      const alone = definitionEnd - headerAt;
      const decorated = definitionEnd - headAt;
      // The reported case (the definition fits alone, not with its decorator), and a size far below it.
      const middle = alone + Math.floor((decorated - alone) / 2);
      for (const size of [alone, middle, Math.ceil(alone * 0.7)]) {
        expect(size).toBeLessThan(decorated);
        const spans = await split(source, c.language, size);
        expectContract(source, spans);
        for (const s of spans) expect(s.oversize ?? false).toBe(false);
        if (size < alone) continue;
        const holding = spans.find((s) => s.start <= headAt && headAt < s.end)!;
        const own = source.slice(holding.start, holding.end);
        expect(own, `${c.language} at ${size}`).toContain(c.header);
        // The first members join when they fit the chunk's budget (which, at exactly `alone`, still counts the
        // definition's own signature line: see the README).
        if (size === middle && c.firstMember) expect(own, `${c.language} at ${size}`).toContain(c.firstMember);
        for (const s of spans) expect(onlyDecoration(source.slice(s.start, s.end)), JSON.stringify(source.slice(s.start, s.end))).toBe(false);
      }
    });
  }

  it('never moves a cut into a definition to keep a line whole (a trailing comment after its closing brace)', async () => {
    const f = 'func f() int {\n\tx := 1\n\ty := 2\n\treturn x + y\n}';
    const source = `package p\n\n${f} // the sum of one and two, explained at some length\n\nfunc g() {}\n`;
    // f alone is 46 characters: it fits every size here, but not with its comment.
    for (const size of [46, 50, 60, 70, 90]) {
      const spans = await split(source, 'go', size);
      expectContract(source, spans);
      holder(spans, rangeOf(source, 'func f()', 'return x + y\n}'));
    }
  });

  it('packs imports and small functions together up to the size', async () => {
    const source = 'import os\nimport sys\n\n\ndef a():\n    return 1\n\n\ndef b():\n    return 2\n\n\ndef c():\n    return 3\n';
    const spans = await split(source, 'python', 60);
    expectContract(source, spans);
    expect(spans.map((s) => source.slice(s.start, s.end))).toEqual([
      'import os\nimport sys\n\n\ndef a():\n    return 1',
      'def b():\n    return 2\n\n\ndef c():\n    return 3',
    ]);
    expect(spans.map((s) => s.headingPath)).toEqual([[], ['b']]);
    // No path: no prefix at all at top level.
    expect(spans.every((s) => s.prefix === undefined && s.content === undefined)).toBe(true);
  });

  it('gives exact UTF-16 offsets after non-ASCII identifiers, strings and emoji (astral characters)', async () => {
    const source = [
      'const grüße = "héllo 👋🏽 wörld 🌍";',
      'function 𝒻(x) { return x + "😀😀"; }',
      'class Café { naïve() { return "🍰"; } }',
      'function after() { return 1; }',
    ].join('\n\n');
    const spans = await split(source, 'javascript', 80, 'émoji/ünï.js');
    expect(spans.length).toBeGreaterThan(2);
    expectContract(source, spans);
    const after = holder(spans, rangeOf(source, 'function after', 'return 1; }'));
    expect(after.start).toBe(source.indexOf('function after'));
    expect(after.headingPath).toEqual(['after']);
    const cafe = holder(spans, rangeOf(source, 'class Café', '"🍰"; } }'));
    expect(source.slice(cafe.start, cafe.end)).toBe('class Café { naïve() { return "🍰"; } }');
    expect(cafe.prefix).toBe('// file: émoji/ünï.js\n');
  });

  it('repeats signatures with overlap, and overlapping chunks stay inside one definition', async () => {
    const spans = await split(text, 'python', 300, 'cart.py', 120);
    expectContract(text, spans);
    const total = rangeOf(text, 'def total(', 'return math.floor(taxed * 100) / 100');
    const pieces = spans.filter((s) => s.start >= total.start && s.end <= total.end);
    expect(pieces.length).toBeGreaterThan(1);
    for (let i = 1; i < pieces.length; i++) expect(pieces[i]!.start).toBeLessThanOrEqual(pieces[i - 1]!.end);
  });

  it('drops the outer signatures first when the prefix would take more than half the size', async () => {
    const spans = await split(text, 'python', 120, 'a/rather/long/path/to/the/shop/cart.py');
    expectContract(text, spans);
    for (const s of spans) {
      // The lines of the prefix (the first line's indentation after them is added only when it fits).
      if (s.prefix) expect(s.prefix.replace(/[ \t]+$/, '').length).toBeLessThanOrEqual(60);
      if (!s.oversize) expect((s.content ?? text.slice(s.start, s.end)).length).toBeLessThanOrEqual(120);
    }
  });

  it('reuses the last parse only for the very same text and language', async () => {
    const a = 'def a():\n    return 1\n\n\ndef b():\n    return 2\n';
    const b = 'def c():\n    return 3\n\n\ndef d():\n    return 4\n';
    expect(a.length).toBe(b.length);
    const first = await split(a, 'python', 25);
    const structure = await codeStructure(a, { language: 'python', loadWasm: nodeLoadWasm });
    expect(await split(a, 'python', 25)).toEqual(first);
    expect((await split(b, 'python', 25)).map((s) => s.headingPath)).toEqual([['c'], ['d']]);
    // The same text as another language is parsed with that grammar.
    expect((await split(b, 'javascript', 25)).every((s) => s.headingPath.length === 0)).toBe(true);
    expect(structure.sections.map((s) => s.headingPath)).toEqual([['a'], ['b']]);
    expect(first.map((s) => s.headingPath)).toEqual([['a'], ['b']]);
  });

  it('stops with an AbortError when the signal is set', async () => {
    const unit = await getUnit('chars');
    await expect(
      splitCode(text, { language: 'python', size: 200, overlap: 0, unit, loadWasm: nodeLoadWasm, signal: { aborted: true } }),
    ).rejects.toMatchObject({ name: 'AbortError' });
  });

  it('counts the size in tokens too', async () => {
    const unit = await getUnit('cl100k_base');
    const spans = await splitCode(text, { language: 'python', size: 120, overlap: 0, unit, path: 'cart.py', loadWasm: nodeLoadWasm });
    expectContract(text, spans);
    for (const s of spans) if (!s.oversize) expect(unit.count(s.content ?? '')).toBeLessThanOrEqual(121);
    holder(spans, rangeOf(text, 'def add(', 'self.items.append(item)'));
  });
});

describe('codeStructure', () => {
  it('has one section per top-level definition and per run of other code, covering the file', async () => {
    const text = fixture('cart.py.txt');
    const structure = await codeStructure(text, { language: 'python', path: 'shop/cart.py', loadWasm: nodeLoadWasm });
    expect(structure.title).toBe('cart.py');
    const { sections } = structure;
    expect(sections[0]!.start).toBe(0);
    expect(sections[sections.length - 1]!.end).toBe(text.length);
    for (let i = 1; i < sections.length; i++) expect(sections[i]!.start).toBe(sections[i - 1]!.end);
    expect(sections.map((s) => s.headingPath)).toEqual([[], ['Item'], ['Cart'], ['load_cart'], ['format_price'], []]);
    expect(sections[2]!.start).toBe(text.indexOf('# A cart of items'));
    expect(sections[5]!.start).toBe(text.indexOf('if __name__'));
    expect(structure.headingPathAt(text.indexOf('discount += 1.5'))).toEqual(['Cart', 'total']);
    expect(structure.headingPathAt(text.indexOf('"""Items a customer'))).toEqual(['Cart']);
    expect(structure.headingPathAt(text.indexOf('TAX_RATE = 0.19'))).toEqual([]);
    expect(structure.headingPathAt(text.indexOf('@property'))).toEqual(['Cart', 'is_empty']);
  });

  it('names nested definitions outermost first (C++ namespace > class > method)', async () => {
    const text = fixture('shapes.cpp.txt');
    const structure = await codeStructure(text, { language: 'cpp', loadWasm: nodeLoadWasm });
    expect(structure.headingPathAt(text.indexOf('return width_ * height_;'))).toEqual(['geometry', 'Rectangle', 'area']);
    expect(structure.headingPathAt(text.indexOf('total += shape->area()'))).toEqual(['geometry', 'totalArea']);
    expect(structure.headingPathAt(text.indexOf('shapes.push_back'))).toEqual(['main']);
  });

  it('names Rust impl blocks by their type, and trait impls as "Trait for Type"', async () => {
    const text = fixture('matrix.rs.txt');
    const structure = await codeStructure(text, { language: 'rust', loadWasm: nodeLoadWasm });
    expect(structure.headingPathAt(text.indexOf('let mut sum = 0.0;'))).toEqual(['Matrix', 'try_mul']);
    expect(structure.headingPathAt(text.indexOf('writeln!'))).toEqual(['fmt::Display for Matrix', 'fmt']);
    expect(structure.sections.map((s) => s.headingPath)).toEqual([
      [],
      ['Matrix'],
      ['MatrixError'],
      ['Matrix'],
      ['fmt::Display for Matrix'],
      ['Add for Matrix'],
      ['Mul for Matrix'],
    ]);
  });
});

describe('code strategy', () => {
  const options = (over: Partial<ResolvedOptions>): ResolvedOptions => ({
    strategy: 'code',
    size: 1500,
    overlap: 0,
    unit: 'chars',
    separators: [],
    separatorsAreRegex: false,
    keepSeparator: 'start',
    language: null,
    compat: 'none',
    documentId: null,
    locale: 'en',
    ...over,
  });

  it('takes the language from the path when none is given, and from the option first', async () => {
    const text = fixture('server.go.txt');
    const unit = await getUnit('chars');
    const spans = await codeStrategy.split(text, { unit, options: options({ path: 'inventory/server.go', size: 400 }), loadWasm: nodeLoadWasm });
    expect(spans[0]!.prefix).toBe('// file: inventory/server.go\n');
    expect(spans.some((s) => (s as StructureSpan).headingPath?.[0] === 'Snapshot')).toBe(true);
    const asText = await codeStrategy.split('x = 1\n', { unit, options: options({ language: 'py', path: 'notes.txt' }), loadWasm: nodeLoadWasm });
    expect(asText.map((s) => s.content)).toEqual(['# file: notes.txt\nx = 1']);
  });

  it('asks for a language in one line when it cannot tell, and for a loader when there is none', async () => {
    const unit = await getUnit('chars');
    expect(() => codeStrategy.split('x', { unit, options: options({ path: 'README' }), loadWasm: nodeLoadWasm })).toThrow(/cannot tell the code language of "README"/);
    expect(() => codeStrategy.split('x', { unit, options: options({}), loadWasm: nodeLoadWasm })).toThrow(/needs a language/);
    expect(() => codeStrategy.split('x', { unit, options: options({ language: 'cobol' }), loadWasm: nodeLoadWasm })).toThrow(/does not know the language "cobol"/);
    expect(() => codeStrategy.split('x', { unit, options: options({ language: 'python' }) })).toThrow(/needs a wasm loader/);
  });
});

describe('code languages', () => {
  it('detects the language from the file extension', () => {
    expect(detectCodeLanguage('src/app.py')).toBe('python');
    expect(detectCodeLanguage('C:\\work\\Main.JAVA')).toBe('java');
    expect(detectCodeLanguage('index.mjs')).toBe('javascript');
    expect(detectCodeLanguage('a.d.ts')).toBe('typescript');
    expect(detectCodeLanguage('App.tsx')).toBe('tsx');
    expect(detectCodeLanguage('lib.rs')).toBe('rust');
    expect(detectCodeLanguage('ring.h')).toBe('c');
    expect(detectCodeLanguage('shapes.hpp')).toBe('cpp');
    expect(detectCodeLanguage('main.go')).toBe('go');
    expect(detectCodeLanguage('README')).toBeNull();
    expect(detectCodeLanguage('notes.txt')).toBeNull();
    expect(detectCodeLanguage('')).toBeNull();
  });

  it('resolves aliases', () => {
    expect(resolveCodeLanguage('JS')).toBe('javascript');
    expect(resolveCodeLanguage('c++')).toBe('cpp');
    expect(resolveCodeLanguage('cobol')).toBeNull();
  });

  it('every grammar loads and parses through the Node loader', async () => {
    const unit = await getUnit('chars');
    for (const language of CODE_LANGUAGE_NAMES) {
      const spans = await splitCode('x\n', { language, size: 100, overlap: 0, unit, loadWasm: nodeLoadWasm });
      expect(spans.map((s) => [s.start, s.end])).toEqual([[0, 1]]);
    }
  });
});
