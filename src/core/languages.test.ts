import { describe, expect, it } from 'vitest';
import { RecursiveCharacterTextSplitter, SupportedTextSplitterLanguages } from '@langchain/textsplitters';
import { LANGCHAIN_JS_LANGUAGES, LANGUAGE_NAMES, LANGUAGE_PRESETS, languageSeparators } from './languages';

describe('language presets', () => {
  it('uses exactly LangChain JS lists for the languages it supports', () => {
    for (const language of SupportedTextSplitterLanguages) {
      expect(LANGUAGE_PRESETS[language], language).toEqual(
        RecursiveCharacterTextSplitter.getSeparatorsForLanguage(language),
      );
    }
    expect([...LANGCHAIN_JS_LANGUAGES].sort()).toEqual([...SupportedTextSplitterLanguages].sort());
  });

  it('covers the languages the issue asks for, the four extra ones outside LangChain JS', () => {
    const wanted = ['markdown', 'html', 'latex', 'python', 'js', 'ts', 'go', 'java', 'rust', 'cpp', 'c', 'php',
      'ruby', 'scala', 'swift', 'kotlin', 'csharp', 'sol', 'proto', 'rst'];
    expect([...LANGUAGE_NAMES].sort()).toEqual([...wanted].sort());
    for (const extra of ['ts', 'kotlin', 'csharp', 'c']) expect(LANGCHAIN_JS_LANGUAGES.has(extra)).toBe(false);
  });

  it('ends every hierarchy with the character level so any text can be split', () => {
    for (const name of LANGUAGE_NAMES) expect(LANGUAGE_PRESETS[name]!.at(-1), name).toBe('');
  });

  it('does not resolve inherited object keys as languages', () => {
    expect(languageSeparators('toString')).toBeUndefined();
    expect(languageSeparators('python')).toContain('\ndef ');
  });
});
