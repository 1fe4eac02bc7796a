import { describe, expect, it } from 'vitest';
import { splitLangchainMarkdownHeaders, type LangchainMarkdownHeaderOptions } from './langchainMarkdownHeader';

/**
 * Cases restated from LangChain's upstream unit tests for MarkdownHeaderTextSplitter
 * (libs/text-splitters/tests/unit_tests/test_text_splitters.py: test_md_header_text_splitter_1, _2, _3,
 * _preserve_headers_1, _preserve_headers_2, _fenced_code_block, _fenced_code_block_interleaved,
 * _with_invisible_characters). Inputs and expected documents as the upstream tests state them.
 */

const H12: LangchainMarkdownHeaderOptions['headersToSplitOn'] = [
  ['#', 'Header 1'],
  ['##', 'Header 2'],
];
const H123: LangchainMarkdownHeaderOptions['headersToSplitOn'] = [...H12, ['###', 'Header 3']];

function docs(text: string, options: LangchainMarkdownHeaderOptions) {
  return splitLangchainMarkdownHeaders(text, options).map(({ content, metadata }) => ({ content, metadata }));
}

describe('LangChain MarkdownHeaderTextSplitter (upstream cases)', () => {
  it('case 1: indented and space-prefixed headers, blocks joined with "  \\n"', () => {
    const md = '# Foo\n\n    ## Bar\n\nHi this is Jim\n\nHi this is Joe\n\n ## Baz\n\n Hi this is Molly';
    expect(docs(md, { headersToSplitOn: H12 })).toEqual([
      { content: 'Hi this is Jim  \nHi this is Joe', metadata: { 'Header 1': 'Foo', 'Header 2': 'Bar' } },
      { content: 'Hi this is Molly', metadata: { 'Header 1': 'Foo', 'Header 2': 'Baz' } },
    ]);
  });

  it('case 2: a level-3 header between level-2 ones', () => {
    const md = '# Foo\n\n    ## Bar\n\nHi this is Jim\n\nHi this is Joe\n\n ### Boo \n\n Hi this is Lance \n\n ## Baz\n\n Hi this is Molly';
    expect(docs(md, { headersToSplitOn: H123 })).toEqual([
      { content: 'Hi this is Jim  \nHi this is Joe', metadata: { 'Header 1': 'Foo', 'Header 2': 'Bar' } },
      { content: 'Hi this is Lance', metadata: { 'Header 1': 'Foo', 'Header 2': 'Bar', 'Header 3': 'Boo' } },
      { content: 'Hi this is Molly', metadata: { 'Header 1': 'Foo', 'Header 2': 'Baz' } },
    ]);
  });

  it('case 3: four levels, a level-2 header pops levels 3 and 4', () => {
    const md =
      '# Foo\n\n    ## Bar\n\nHi this is Jim\n\nHi this is Joe\n\n ### Boo \n\n Hi this is Lance \n\n #### Bim \n\n Hi this is John \n\n ## Baz\n\n Hi this is Molly';
    expect(docs(md, { headersToSplitOn: [...H123, ['####', 'Header 4']] })).toEqual([
      { content: 'Hi this is Jim  \nHi this is Joe', metadata: { 'Header 1': 'Foo', 'Header 2': 'Bar' } },
      { content: 'Hi this is Lance', metadata: { 'Header 1': 'Foo', 'Header 2': 'Bar', 'Header 3': 'Boo' } },
      {
        content: 'Hi this is John',
        metadata: { 'Header 1': 'Foo', 'Header 2': 'Bar', 'Header 3': 'Boo', 'Header 4': 'Bim' },
      },
      { content: 'Hi this is Molly', metadata: { 'Header 1': 'Foo', 'Header 2': 'Baz' } },
    ]);
  });

  it('preserve headers 1: untracked ## lines stay as content', () => {
    const md = '# Foo\n\n    ## Bat\n\nHi this is Jim\n\nHi Joe\n\n## Baz\n\n# Bar\n\nThis is Alice\n\nThis is Bob';
    expect(docs(md, { headersToSplitOn: [['#', 'Header 1']], stripHeaders: false })).toEqual([
      { content: '# Foo  \n## Bat  \nHi this is Jim  \nHi Joe  \n## Baz', metadata: { 'Header 1': 'Foo' } },
      { content: '# Bar  \nThis is Alice  \nThis is Bob', metadata: { 'Header 1': 'Bar' } },
    ]);
  });

  it('preserve headers 2: a header block joins the following deeper block', () => {
    const md =
      '# Foo\n\n    ## Bar\n\nHi this is Jim\n\nHi this is Joe\n\n### Boo \n\nHi this is Lance\n\n## Baz\n\nHi this is Molly\n    ## Buz\n# Bop';
    expect(docs(md, { headersToSplitOn: H123, stripHeaders: false })).toEqual([
      { content: '# Foo  \n## Bar  \nHi this is Jim  \nHi this is Joe', metadata: { 'Header 1': 'Foo', 'Header 2': 'Bar' } },
      { content: '### Boo  \nHi this is Lance', metadata: { 'Header 1': 'Foo', 'Header 2': 'Bar', 'Header 3': 'Boo' } },
      { content: '## Baz  \nHi this is Molly', metadata: { 'Header 1': 'Foo', 'Header 2': 'Baz' } },
      { content: '## Buz', metadata: { 'Header 1': 'Foo', 'Header 2': 'Buz' } },
      { content: '# Bop', metadata: { 'Header 1': 'Bop' } },
    ]);
  });

  for (const fence of ['```', '~~~']) {
    it(`fenced code block (${fence}): "# lines" inside are not headers`, () => {
      const md = `# This is a Header\n\n${fence}\nfoo()\n# Not a header\nbar()\n${fence}`;
      expect(docs(md, { headersToSplitOn: H12 })).toEqual([
        { content: `${fence}\nfoo()\n# Not a header\nbar()\n${fence}`, metadata: { 'Header 1': 'This is a Header' } },
      ]);
    });
  }

  for (const [fence, other] of [
    ['```', '~~~'],
    ['~~~', '```'],
  ] as const) {
    it(`interleaved fences (${fence} then ${other}): only the opening marker closes`, () => {
      const md = `# This is a Header\n\n${fence}\nfoo\n# Not a header\n${other}\n# Not a header\n${fence}`;
      expect(docs(md, { headersToSplitOn: H12 })).toEqual([
        { content: `${fence}\nfoo\n# Not a header\n${other}\n# Not a header\n${fence}`, metadata: { 'Header 1': 'This is a Header' } },
      ]);
    });
  }

  it('invisible characters: a BOM before a header is dropped', () => {
    const md = '\ufeff# Foo\n\nfoo()\n\ufeff## Bar\n\nbar()';
    expect(docs(md, { headersToSplitOn: H12 })).toEqual([
      { content: 'foo()', metadata: { 'Header 1': 'Foo' } },
      { content: 'bar()', metadata: { 'Header 1': 'Foo', 'Header 2': 'Bar' } },
    ]);
  });
});

describe('LangChain MarkdownHeaderTextSplitter: options and spans', () => {
  const md = '# Foo\n\nline one\nline two\n\n## Bar\n\nline three';

  it('returnEachLine gives one document per line with its headers', () => {
    expect(docs(md, { headersToSplitOn: H12, returnEachLine: true })).toEqual([
      { content: 'line one\nline two', metadata: { 'Header 1': 'Foo' } },
      { content: 'line three', metadata: { 'Header 1': 'Foo', 'Header 2': 'Bar' } },
    ]);
  });

  it('includeLineNumbers adds one-based start_line and end_line', () => {
    const [first, second] = splitLangchainMarkdownHeaders(md, { headersToSplitOn: H12, includeLineNumbers: true });
    expect(first!.metadata).toMatchObject({ start_line: 3, end_line: 4 });
    expect(second!.metadata).toMatchObject({ start_line: 8, end_line: 8 });
  });

  it('each document has the source span of its lines', () => {
    const out = splitLangchainMarkdownHeaders(md, { headersToSplitOn: H12 });
    expect(out.map((d) => md.slice(d.start, d.end))).toEqual(['line one\nline two', 'line three']);
    const kept = splitLangchainMarkdownHeaders(md, { headersToSplitOn: H12, stripHeaders: false });
    expect(kept.map((d) => md.slice(d.start, d.end))).toEqual(['# Foo\n\nline one\nline two', '## Bar\n\nline three']);
  });
});
