import { beforeEach, describe, expect, it } from 'vitest';
import { parseStoredDocument } from './persistence';
import { resetStore, useStore } from './store';

describe('document page starts', () => {
  beforeEach(() => resetStore());

  it('are stored with an imported document and kept while its text is unchanged', () => {
    const s = useStore.getState();
    s.setDocument('page one\n\npage two', { name: 'a.pdf', pageStarts: [0, 10] });
    expect(useStore.getState().pageStarts).toEqual([0, 10]);
    // The editor reports its content back without changing it (e.g. after loading): the pages stay.
    s.setDocument('page one\n\npage two', { origin: 'editor' });
    expect(useStore.getState()).toMatchObject({ pageStarts: [0, 10], docName: 'a.pdf' });
  });

  it('are cleared by an edit that changes the text, and by another document', () => {
    const s = useStore.getState();
    s.setDocument('page one\n\npage two', { name: 'a.pdf', pageStarts: [0, 10] });
    s.setDocument('page one!\n\npage two', { origin: 'editor' });
    expect(useStore.getState().pageStarts).toBeNull();
    s.setDocument('page one\n\npage two', { name: 'a.pdf', pageStarts: [0, 10] });
    s.setDocument('# Sample', { name: 'sample.md' });
    expect(useStore.getState().pageStarts).toBeNull();
    s.setDocument('x', { name: 'a.pdf', pageStarts: [0] });
    s.resetDocument();
    expect(useStore.getState().pageStarts).toBeNull();
  });

  it('survive storage only when they fit the text', () => {
    expect(parseStoredDocument({ text: 'abcdef', name: 'a.pdf', pageStarts: [0, 3] })).toEqual({ text: 'abcdef', name: 'a.pdf', pageStarts: [0, 3], revision: 0 });
    for (const bad of [[1, 3], [0, 9], [0, 4, 2], [0, 1.5], 'x', []]) {
      expect(parseStoredDocument({ text: 'abcdef', name: 'a.pdf', pageStarts: bad })).toEqual({ text: 'abcdef', name: 'a.pdf', revision: 0 });
    }
  });
});
