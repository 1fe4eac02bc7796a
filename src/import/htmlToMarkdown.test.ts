import { describe, expect, it } from 'vitest';
import { htmlToMarkdown } from './htmlToMarkdown';

describe('htmlToMarkdown (mammoth HTML)', () => {
  it('writes headings, paragraphs, emphasis and links', () => {
    const html = '<h1>Title</h1><p>Some <strong>bold </strong>and <em>italic</em> text, a <a href="https://x.test/a b">link</a>.</p><h3>Deep</h3>';
    expect(htmlToMarkdown(html)).toBe('# Title\n\nSome **bold** and *italic* text, a [link](https://x.test/a%20b).\n\n### Deep');
  });

  it('decodes entities and escapes only what would change the structure', () => {
    expect(htmlToMarkdown('<p>&lt;b&gt; &amp; &quot;q&quot; &#x2014; &#169;</p>')).toBe('<b> & "q" — ©');
    expect(htmlToMarkdown('<p># not a heading</p><p>```</p><p>1. a numbered line</p>')).toBe('\\# not a heading\n\n\\```\n\n1. a numbered line');
  });

  it('writes nested lists with numbers', () => {
    const html = '<ol><li>One<ul><li>inner</li></ul></li><li>Two</li></ol>';
    expect(htmlToMarkdown(html)).toBe('1. One\n  - inner\n2. Two');
  });

  it('writes a table as a pipe table: first row as header, pipes escaped, cell paragraphs on one line', () => {
    const html = '<table><tr><td><p>A</p></td><td><p>B|C</p></td></tr><tr><td><p>1</p><p>more</p></td></tr></table>';
    expect(htmlToMarkdown(html)).toBe('| A | B\\|C |\n| --- | --- |\n| 1 more |  |');
  });

  it('leaves out bookmarks and images without alt text', () => {
    expect(htmlToMarkdown('<h2><a id="_Toc1"></a>Intro</h2><p><img src="" /><img src="" alt="logo" /> text</p>')).toBe('## Intro\n\n[image: logo] text');
  });
});
