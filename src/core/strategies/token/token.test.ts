import { describe, expect, it } from 'vitest';
import { chunk, getUnit } from '../../index';

describe('token splitter', () => {
  it('steps like LangChain TokenTextSplitter: the next window starts `overlap` tokens before the previous end', async () => {
    // cl100k_base encodes this as one token per word (checked in fixed.test.ts).
    const chunks = await chunk('one two three four five', { strategy: 'token', size: 2, overlap: 1 });
    expect(chunks.map((c) => c.text)).toEqual(['one two', ' two three', ' three four', ' four five']);
    expect(chunks.map((c) => c.size)).toEqual([2, 2, 2, 2]);
  });

  it('defaults to cl100k_base tokens', async () => {
    const [first] = await chunk('hello world', { strategy: 'token' });
    expect(first!.metadata.unit).toBe('cl100k_base');
  });

  it('never cuts a character that spans several tokens', async () => {
    const unit = await getUnit('cl100k_base');
    const text = '中文文本😀👨‍👩‍👧';
    const chunks = await chunk(text, { strategy: 'token', size: 1, overlap: 0 });
    for (const c of chunks) {
      expect(c.text).toBe(text.slice(c.start, c.end));
      expect(c.text).not.toMatch(/^[\udc00-\udfff]|[\ud800-\udbff]$/); // no half surrogate pair at an edge
      expect(c.metadata.oversize ?? false).toBe(unit.count(c.text) > 1);
    }
    expect(chunks.map((c) => c.text).join('')).toBe(text); // no overlap: the windows tile the text
  });

  it('treats special-token strings as text', async () => {
    const chunks = await chunk('a <|endoftext|> b', { strategy: 'token', size: 100, overlap: 0 });
    expect(chunks.map((c) => c.text)).toEqual(['a <|endoftext|> b']);
  });
});
