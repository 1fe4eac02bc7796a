import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { nodeLoadWasm } from '../../node/loadWasm';
import { isWhitespaceCode } from '../measure';
import type { Range, Unit } from '../types';
import { getUnit } from '../units';
import { CODE_LANGUAGE_NAMES, type CodeLanguageName } from '../strategies/code/languages';
import { splitCode } from './codeSplit';
import type { StructureSpan } from './markdownSplit';

/**
 * Properties of the code splitter over generated Python files whose definitions' ranges are known from the
 * generator (not from the parser), and over arbitrary (mostly broken) code in every language.
 */

const NAMES = ['total', 'größe', 'café', 'naïve', 'load', 'x1', 'Δelta', 'run_all', 'ñandú', 'k'];
const WORDS = ['alpha', 'beta', 'é', 'ünï', '😀', '🧵', '👋🏽', 'x', 'long_word_here', '"q"', '→'];

interface Statement {
  kind: 'assign' | 'return' | 'if' | 'for';
  words: string[];
  inner: Statement[];
}

const leaf: fc.Arbitrary<Statement> = fc.record({
  kind: fc.constantFrom<'assign' | 'return'>('assign', 'return'),
  words: fc.array(fc.constantFrom(...WORDS), { minLength: 1, maxLength: 12 }),
  inner: fc.constant([]),
});
const statement: fc.Arbitrary<Statement> = fc.oneof(
  { weight: 3, arbitrary: leaf },
  {
    weight: 1,
    arbitrary: fc.record({
      kind: fc.constantFrom<'if' | 'for'>('if', 'for'),
      words: fc.array(fc.constantFrom(...WORDS), { minLength: 1, maxLength: 3 }),
      inner: fc.array(leaf, { minLength: 1, maxLength: 4 }),
    }),
  },
);

interface FunctionItem {
  kind: 'function';
  name: string;
  comment: boolean;
  /** Python: decorators between the comment and `def` (none in JavaScript and Go). */
  decorators: number;
  /** JavaScript, top level: a comment after the closing brace, on its line. */
  trailing: boolean;
  body: Statement[];
}
interface ClassItem {
  kind: 'class';
  name: string;
  comment: boolean;
  /** Python: decorators between the comment and `class`. */
  decorators: number;
  docstring: boolean;
  methods: FunctionItem[];
}
interface OtherItem {
  kind: 'import' | 'assign';
  words: string[];
}
type Item = FunctionItem | ClassItem | OtherItem;

const functionItem: fc.Arbitrary<FunctionItem> = fc.record({
  kind: fc.constant<'function'>('function'),
  name: fc.constantFrom(...NAMES),
  comment: fc.boolean(),
  decorators: fc.nat({ max: 2 }),
  trailing: fc.boolean(),
  body: fc.array(statement, { minLength: 1, maxLength: 8 }),
});
const item: fc.Arbitrary<Item> = fc.oneof(
  { weight: 3, arbitrary: functionItem },
  {
    weight: 2,
    arbitrary: fc.record({
      kind: fc.constant<'class'>('class'),
      name: fc.constantFrom('Cart', 'Größe', 'Thing'),
      comment: fc.boolean(),
      decorators: fc.nat({ max: 2 }),
      docstring: fc.boolean(),
      methods: fc.array(functionItem, { minLength: 1, maxLength: 5 }),
    }),
  },
  {
    weight: 2,
    arbitrary: fc.record({ kind: fc.constantFrom<'import' | 'assign'>('import', 'assign'), words: fc.array(fc.constantFrom(...WORDS), { minLength: 1, maxLength: 6 }) }),
  },
);

interface KnownDefinition extends Range {
  name: string;
  parent: number;
}

/** Source (Python or JavaScript) plus the ranges of its definitions (doc comment included), as the generator laid them out. */
function render(items: Item[], gaps: number[], language: 'python' | 'javascript' = 'python'): { text: string; definitions: KnownDefinition[] } {
  const py = language === 'python';
  const comment = py ? '#' : '//';
  let text = '';
  const definitions: KnownDefinition[] = [];
  const stringOf = (words: string[]): string => JSON.stringify(words.join(' '));
  const statements = (body: Statement[], indent: string): void => {
    body.forEach((s) => {
      if (s.kind === 'assign') text += `${indent}value = ${stringOf(s.words)}${py ? '' : ';'}\n`;
      else if (s.kind === 'return') text += `${indent}return ${stringOf(s.words)}${py ? '' : ';'}\n`;
      else if (py) {
        text += s.kind === 'if' ? `${indent}if value == ${stringOf(s.words)}:\n` : `${indent}for value in ${stringOf(s.words)}:\n`;
        statements(s.inner, indent + '    ');
      } else {
        text += s.kind === 'if' ? `${indent}if (value === ${stringOf(s.words)}) {\n` : `${indent}for (const value of ${stringOf(s.words)}) {\n`;
        statements(s.inner, indent + '  ');
        text += `${indent}}\n`;
      }
    });
  };
  const fn = (f: FunctionItem, indent: string, parent: number): void => {
    const start = text.length + indent.length;
    if (f.comment) text += `${indent}${comment} ${f.name} does things — ✓\n`;
    const index = definitions.push({ start, end: -1, name: f.name, parent }) - 1;
    if (py) {
      for (let d = 0; d < f.decorators; d++) text += `${indent}@cached(key="${f.name}", ttl=${d})\n`;
      text += `${indent}def ${f.name}(self, a="é"):\n`;
      statements(f.body, indent + '    ');
    } else {
      text += `${indent}${parent === -1 ? 'function ' : ''}${f.name}(a = "é") {\n`;
      statements(f.body, indent + '  ');
      // tree-sitter-javascript puts a comment after a top-level function's closing brace, on its line, inside the
      // function's body: it belongs to the function.
      text += `${indent}}${f.trailing && parent === -1 ? ` // end of ${f.name}, which did a number of things ✓` : ''}`;
      definitions[index]!.end = text.length;
      text += '\n';
      return;
    }
    definitions[index]!.end = text.length - 1;
  };
  items.forEach((it, i) => {
    if (i > 0) text += '\n'.repeat(gaps[i % gaps.length]!);
    if (it.kind === 'function') fn(it, '', -1);
    else if (it.kind === 'class') {
      const start = text.length;
      if (it.comment) text += `${comment} The ${it.name} class 🧺\n`;
      const index = definitions.push({ start, end: -1, name: it.name, parent: -1 }) - 1;
      if (py) for (let d = 0; d < it.decorators; d++) text += `@dataclass(frozen=${d === 0 ? 'True' : 'False'})\n`;
      text += py ? `class ${it.name}:\n` : `class ${it.name} {\n`;
      if (it.docstring) text += py ? `    """About ${it.name}: ünïcödé 😀."""\n` : `  // About ${it.name}: ünïcödé 😀.\n`;
      it.methods.forEach((m, k) => {
        if (k > 0 || it.docstring) text += '\n';
        fn(m, py ? '    ' : '  ', index);
      });
      if (!py) text += '}\n';
      definitions[index]!.end = text.length - 1;
    } else if (it.kind === 'import') {
      text += py ? `import ${it.words.length > 3 ? 'os' : 'sys'}\n` : `import ${it.words.length > 3 ? 'os' : 'sys'} from 'node:os';\n`;
    } else {
      text += `${py ? '' : 'const '}CONSTANT = ${stringOf(it.words)}${py ? '' : ';'}\n`;
    }
  });
  return { text, definitions };
}

/**
 * The same items as Go: a class becomes a struct type followed by its methods (top-level functions with a
 * receiver); a comment after a function's closing brace is a sibling in Go's tree, outside the function.
 */
function renderGo(items: Item[], gaps: number[]): { text: string; definitions: KnownDefinition[] } {
  let text = 'package p\n\n';
  const definitions: KnownDefinition[] = [];
  const stringOf = (words: string[]): string => JSON.stringify(words.join(' '));
  const statements = (body: Statement[], indent: string): void => {
    body.forEach((s) => {
      if (s.kind === 'assign') text += `${indent}value = ${stringOf(s.words)}\n`;
      else if (s.kind === 'return') text += `${indent}return ${stringOf(s.words)}\n`;
      else {
        text += s.kind === 'if' ? `${indent}if value == ${stringOf(s.words)} {\n` : `${indent}for _, value := range ${stringOf(s.words)} {\n`;
        statements(s.inner, indent + '\t');
        text += `${indent}}\n`;
      }
    });
  };
  const fn = (f: FunctionItem, receiver: string | null): void => {
    const start = text.length;
    if (f.comment) text += `// ${f.name} does things — ✓\n`;
    const index = definitions.push({ start, end: -1, name: f.name, parent: -1 }) - 1;
    text += `func ${receiver ? `(r *${receiver}) ` : ''}${f.name}(a string) string {\n`;
    statements(f.body, '\t');
    text += '}';
    definitions[index]!.end = text.length;
    text += f.trailing ? ` // end of ${f.name}, which did a number of things ✓\n` : '\n';
  };
  items.forEach((it, i) => {
    if (i > 0) text += '\n'.repeat(gaps[i % gaps.length]!);
    if (it.kind === 'function') fn(it, null);
    else if (it.kind === 'class') {
      const start = text.length;
      if (it.comment) text += `// ${it.name} holds things 🧺\n`;
      const index = definitions.push({ start, end: -1, name: it.name, parent: -1 }) - 1;
      text += `type ${it.name} struct {\n\tA string${it.docstring ? ' // ünïcödé 😀' : ''}\n}`;
      definitions[index]!.end = text.length;
      text += '\n';
      for (const m of it.methods) {
        text += '\n';
        fn(m, it.name);
      }
    } else if (it.kind === 'import') {
      text += `import "${it.words.length > 3 ? 'os' : 'fmt'}"\n`;
    } else {
      text += `var CONSTANT = ${stringOf(it.words)}\n`;
    }
  });
  return { text, definitions };
}

/** The same file with \r\n line breaks, the known ranges moved accordingly. */
function withCrlf(file: { text: string; definitions: KnownDefinition[] }): { text: string; definitions: KnownDefinition[] } {
  const breaksBefore = (at: number): number => file.text.slice(0, at).split('\n').length - 1;
  return {
    text: file.text.replace(/\n/g, '\r\n'),
    definitions: file.definitions.map((d) => ({ ...d, start: d.start + breaksBefore(d.start), end: d.end + breaksBefore(d.end) })),
  };
}

/** Whether text is nothing but Python decorators and comments (and blank lines). */
function onlyDecoration(own: string): boolean {
  return own
    .split(/\r?\n/)
    .map((l) => l.trim())
    .every((l) => l === '' || l.startsWith('@') || l.startsWith('#'));
}

function ancestry(definitions: KnownDefinition[], offset: number): string[] {
  return definitions.filter((d) => d.start <= offset && offset < d.end).map((d) => d.name);
}

function trimmedSize(text: string, r: Range, unit: Unit): number {
  let { start, end } = r;
  while (start < end && isWhitespaceCode(text.charCodeAt(start))) start++;
  while (end > start && isWhitespaceCode(text.charCodeAt(end - 1))) end--;
  return unit.count(text.slice(start, end));
}

function expectContract(text: string, spans: StructureSpan[], unit: Unit, size: number): void {
  let previous = { start: -1, end: -1 };
  for (const s of spans) {
    expect(s.start).toBeGreaterThan(previous.start);
    expect(s.end).toBeGreaterThan(previous.end);
    expect(s.start).toBeLessThan(s.end);
    expect(s.end).toBeLessThanOrEqual(text.length);
    expect(isWhitespaceCode(text.charCodeAt(s.start))).toBe(false);
    expect(isWhitespaceCode(text.charCodeAt(s.end - 1))).toBe(false);
    expect(s.content ?? text.slice(s.start, s.end)).toBe((s.prefix ?? '') + text.slice(s.start, s.end));
    if (!s.oversize) expect(unit.count(s.content ?? text.slice(s.start, s.end))).toBeLessThanOrEqual(size);
    previous = s;
  }
  const covered = new Uint8Array(text.length);
  for (const s of spans) covered.fill(1, s.start, s.end);
  for (let i = 0; i < text.length; i++) {
    if (!covered[i] && !isWhitespaceCode(text.charCodeAt(i))) throw new Error(`character ${i} (${JSON.stringify(text[i])}) is in no chunk`);
  }
}

describe('splitCode properties', () => {
  it('generated Python, JavaScript and Go: exact offsets, coverage, size bound, headingPath = ancestry, top-level definitions that fit are never cut', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(item, { minLength: 1, maxLength: 8 }),
        fc.array(fc.integer({ min: 1, max: 3 }), { minLength: 1, maxLength: 4 }),
        fc.integer({ min: 30, max: 900 }),
        fc.integer({ min: 0, max: 7 }),
        fc.constantFrom<'chars' | 'words' | 'cl100k_base'>('chars', 'words', 'cl100k_base'),
        fc.constantFrom(null, 'pkg/módulo.src'),
        fc.boolean(),
        fc.constantFrom<'python' | 'javascript' | 'go'>('python', 'javascript', 'go'),
        async (items, gaps, size, overlapEighths, unitName, path, crlf, language) => {
          const rendered = language === 'go' ? renderGo(items, gaps) : render(items, gaps, language);
          const { text, definitions } = crlf ? withCrlf(rendered) : rendered;
          const unit = await getUnit(unitName);
          const sizeInUnit = unitName === 'chars' ? size : Math.max(4, Math.round(size / (unitName === 'words' ? 6 : 4)));
          const overlap = Math.floor((sizeInUnit * overlapEighths) / 8);
          const spans = await splitCode(text, { language, size: sizeInUnit, overlap, unit, path, loadWasm: nodeLoadWasm });
          expectContract(text, spans, unit, sizeInUnit);
          for (const s of spans) expect(s.headingPath).toEqual(ancestry(definitions, s.start));
          // Top-level chunks leave room for the path line (dropped when it would take more than half the size).
          const pathSize = path ? unit.count(`${language === 'python' ? '#' : '//'} file: ${path}\n`) : 0;
          const budget = sizeInUnit - (pathSize > sizeInUnit / 2 ? 0 : pathSize);
          for (const d of definitions) {
            if (d.parent !== -1 || trimmedSize(text, d, unit) > budget) continue;
            const cutting = spans.filter((s) => s.start < d.end && s.end > d.start && !(s.start <= d.start && s.end >= d.end));
            expect(cutting).toEqual([]);
          }
          // No chunk is only decorators and comments when they fit with the line they open (`def ...:`).
          if (language === 'python' && unitName === 'chars') {
            for (const s of spans) {
              if (!onlyDecoration(text.slice(s.start, s.end))) continue;
              let lineEnd = s.end;
              do {
                const next = text.indexOf('\n', lineEnd + 1);
                lineEnd = next < 0 ? text.length : next;
              } while (lineEnd < text.length && onlyDecoration(text.slice(s.end, lineEnd)));
              const joined = (s.prefix ?? '') + text.slice(s.start, lineEnd).trimEnd();
              expect(unit.count(joined), JSON.stringify(text.slice(s.start, s.end))).toBeGreaterThan(sizeInUnit);
            }
          }
        },
      ),
      { numRuns: 100 },
    );
  });

  it('any text in any language (broken code included): exact offsets, coverage and the size bound hold', async () => {
    const pieces = ['namespace n ', 'impl A ', 'struct S ', 'void f() ', 'def f():\n', 'function f() ', 'class C ', '}  // end\n', '{', '}', '(', ')', ';', '\n', '\n\n', '\r\n', '    ', 'def ', 'class ', 'fn ', 'func ', 'int ', 'x', 'größe', '"s 😀"', '// c\n', '# c\n', '/*', '*/', '=', ':', 'return ', 'if ', '<div>', '</div>', 'é'];
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.constantFrom(...pieces), { minLength: 1, maxLength: 120 }).map((p) => p.join('')),
        fc.constantFrom(...CODE_LANGUAGE_NAMES),
        fc.integer({ min: 1, max: 200 }),
        fc.integer({ min: 0, max: 7 }),
        async (text, language: CodeLanguageName, size, overlapEighths) => {
          const unit = await getUnit('chars');
          const spans = await splitCode(text, { language, size, overlap: Math.floor((size * overlapEighths) / 8), unit, path: 'f', loadWasm: nodeLoadWasm });
          expectContract(text, spans, unit, size);
        },
      ),
      { numRuns: 500 },
    );
  });
});
