/**
 * Where @langchain/textsplitters misbehaves, the native modes do better. Each case runs LangChain itself (a
 * devDependency) and the native splitter on the same input; the README's list of differences refers to these.
 */
import { CharacterTextSplitter, RecursiveCharacterTextSplitter } from '@langchain/textsplitters';
import { describe, expect, it } from 'vitest';
import { chunk } from './index';

const hasLoneSurrogate = (s: string) => /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/.test(s);

describe('native vs LangChain', () => {
  it('LangChain overlap can exceed the setting (it ignores separators in the count); native overlap never does', async () => {
    const text = 'aa bb cc dd ee ff';
    const lc = await new RecursiveCharacterTextSplitter({ chunkSize: 8, chunkOverlap: 4, separators: [' '], keepSeparator: false }).splitText(text);
    expect(lc.slice(0, 2)).toEqual(['aa bb cc', 'bb cc dd']); // shares "bb cc": 5 characters > 4
    const native = await chunk(text, { strategy: 'recursive', size: 8, overlap: 4, separators: [' ', ''], keepSeparator: 'none' });
    expect(native.map((c) => c.text)).toEqual(['aa bb cc', 'cc dd ee', 'ee ff']);
    for (let i = 1; i < native.length; i++) expect(native[i - 1]!.end - native[i]!.start).toBeLessThanOrEqual(4);
  });

  it('LangChain cuts surrogate pairs at the character level; native cuts between grapheme clusters', async () => {
    const text = '😀😀😀';
    const lc = await new RecursiveCharacterTextSplitter({ chunkSize: 3, chunkOverlap: 0 }).splitText(text);
    expect(lc.some(hasLoneSurrogate)).toBe(true);
    const native = await chunk(text, { strategy: 'recursive', size: 3, overlap: 0 });
    expect(native.map((c) => c.text)).toEqual(['😀', '😀', '😀']);
  });

  it('LangChain chunk strings can differ from the source (repeated separators collapse); native text is always a slice', async () => {
    const text = 'a\n\n\n\nb';
    expect(await new CharacterTextSplitter({ chunkSize: 10, chunkOverlap: 0 }).splitText(text)).toEqual(['a\n\nb']);
    const native = await chunk(text, { strategy: 'character', size: 10, overlap: 0 });
    expect(native.map((c) => [c.start, c.end, c.text])).toEqual([[0, 6, text]]);
  });

  it('LangChain drops a separator even when the whole text fits; native keeps the text whole', async () => {
    const text = 'A b. C d. E f.';
    const lc = await new RecursiveCharacterTextSplitter({ chunkSize: 100, chunkOverlap: 0, separators: ['.'], keepSeparator: false }).splitText(text);
    expect(lc).toEqual(['A b. C d. E f']);
    const native = await chunk(text, { strategy: 'recursive', size: 100, overlap: 0, separators: ['.'], keepSeparator: 'none' });
    expect(native.map((c) => c.text)).toEqual([text]);
  });
});
