import { describe, expect, it } from 'vitest';
import { splitLlamaindexMarkdown } from './llamaindexMarkdown';

// Expected values reasoned from LlamaIndex's MarkdownNodeParser behaviour (reference-behaviour.md): a node per
// header section, text including the header line, header_path = the header's ancestors ("/" when none).
describe('LlamaIndex MarkdownNodeParser compat', () => {
  it('gives header_path of ancestors only and keeps the header line in the text', () => {
    const md = '# Main Header\n\nIntro.\n\n## Sub-header\n\nBody.\n\n### Deep\n\nDeeper.\n\n## Second\n\nMore.';
    const nodes = splitLlamaindexMarkdown(md);
    expect(nodes.map((n) => [n.text, n.metadata.header_path])).toEqual([
      ['# Main Header\n\nIntro.', '/'],
      ['## Sub-header\n\nBody.', '/Main Header/'],
      ['### Deep\n\nDeeper.', '/Main Header/Sub-header/'],
      ['## Second\n\nMore.', '/Main Header/'],
    ]);
    for (const n of nodes) expect(md.slice(n.start, n.end)).toBe(n.text);
  });

  it('ignores "#" lines inside code fences and keeps text before the first header', () => {
    const md = 'Preamble.\n\n# A\n\n```py\n# comment\n```\n\n## B\ntext';
    const nodes = splitLlamaindexMarkdown(md);
    expect(nodes.map((n) => [n.text, n.metadata.header_path])).toEqual([
      ['Preamble.', '/'],
      ['# A\n\n```py\n# comment\n```', '/'],
      ['## B\ntext', '/A/'],
    ]);
  });

  it('a header jumping levels pops only same-or-deeper headers', () => {
    const md = '# A\n### C\nx\n## B\ny';
    expect(splitLlamaindexMarkdown(md).map((n) => n.metadata.header_path)).toEqual(['/', '/A/', '/A/']);
  });

  it('CRLF: like Python, the header text keeps its "\r" and node text is the exact source', () => {
    const md = '# A\r\n\r\nx\r\n## B\r\ny';
    const nodes = splitLlamaindexMarkdown(md);
    expect(nodes.map((n) => n.metadata.header_path)).toEqual(['/', '/A\r/']);
    for (const n of nodes) expect(md.slice(n.start, n.end)).toBe(n.text);
  });
});
