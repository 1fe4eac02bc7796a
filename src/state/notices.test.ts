import { beforeEach, describe, expect, it } from 'vitest';
import { resetStore, useStore } from './store';

describe('notices belong to their document', () => {
  beforeEach(() => resetStore());

  it('a notice about a document goes when another document arrives, not on edits', () => {
    const s = useStore.getState();
    s.setDocument('first file', { name: 'a.html' });
    s.setNotice('This link carries settings only; your own document is shown.');
    s.setDocument('first file, edited', { origin: 'editor' });
    expect(useStore.getState().notice).toContain('settings only');
    s.setDocument('second file', { name: 'b.pdf' });
    expect(useStore.getState().notice).toBeNull();
  });

  it('a notice set right after the new document is about that one and stays', () => {
    const s = useStore.getState();
    s.setNotice('about the old one');
    s.setDocument('new', { name: 'new.md' });
    s.setNotice('“new.md”: Strategy switched to markdown for this file.');
    expect(useStore.getState().notice).toContain('new.md');
    // A paste over the whole text is a document of its own.
    s.setDocument('pasted', { origin: 'editor', name: null, newDocument: true });
    expect(useStore.getState()).toMatchObject({ notice: null, docName: null });
  });

  it('a page notice outlives the document', () => {
    const s = useStore.getState();
    s.setNotice('The model folder was loaded.', { page: true });
    s.setDocument('another', { name: 'x.txt' });
    expect(useStore.getState().notice).toBe('The model folder was loaded.');
  });
});
