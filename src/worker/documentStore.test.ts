import { describe, expect, it } from 'vitest';
import { detectLanguageWindows } from '../core/languageWindows';
import { multilingual } from '../ui/samples/multilingual';
import { DocumentStore } from './documentStore';
import type { Slices } from './jobQueue';

/** Slices that are always spent, and stay the newest for `rounds` yields. */
function slicesFor(rounds: number): Slices & { yields: number } {
  const s = {
    yields: 0,
    over: () => true,
    next: async () => ++s.yields <= rounds,
  };
  return s;
}

describe('DocumentStore', () => {
  it('document: a whole text is handed back to apply; applying makes it the current document at its version', () => {
    const store = new DocumentStore();
    expect([store.text, store.version]).toEqual(['', -1]);
    expect(store.receive({ version: 1, text: 'hello' })).toBe('hello');
    expect(store.text).toBe(''); // not applied yet: it is applied in order with the jobs
    store.apply(1, 'hello');
    expect([store.text, store.version]).toEqual(['hello', 1]);
  });

  it('document in parts: nothing until the last part, then the parts joined in order', () => {
    const store = new DocumentStore();
    expect(store.receive({ version: 2, text: 'ab', more: true })).toBeNull();
    expect(store.receive({ version: 2, text: 'cd', more: true })).toBeNull();
    expect(store.receive({ version: 2, text: 'ef' })).toBe('abcdef');
    // The parts were consumed: a next whole document does not carry them.
    expect(store.receive({ version: 3, text: 'x' })).toBe('x');
  });

  it('document in parts replaced by another version midway: the older parts are dropped', () => {
    const store = new DocumentStore();
    store.receive({ version: 4, text: 'old ', more: true });
    expect(store.receive({ version: 5, text: 'new ', more: true })).toBeNull();
    expect(store.receive({ version: 5, text: 'text' })).toBe('new text');
    store.receive({ version: 6, text: 'dropped', more: true });
    expect(store.receive({ version: 7, text: 'whole' })).toBe('whole');
  });

  it('language windows: found once per document, resumed where a newer job stopped them', async () => {
    const store = new DocumentStore();
    const expected = detectLanguageWindows(multilingual);
    const interrupted = slicesFor(0);
    expect(await store.languageWindowsOf(multilingual, interrupted)).toBeNull();
    expect(interrupted.yields).toBe(1);
    const resumed = slicesFor(Infinity);
    const windows = await store.languageWindowsOf(multilingual, resumed);
    expect(windows).toEqual(expected);
    // Once found, the same arrays come back without any step.
    const again = slicesFor(0);
    expect(await store.languageWindowsOf(multilingual, again)).toBe(windows);
    expect(again.yields).toBe(0);
    // Another text starts over.
    expect(await store.languageWindowsOf('Un texte en français, assez long pour une fenêtre.', slicesFor(Infinity))).not.toBe(windows);
  });
});
