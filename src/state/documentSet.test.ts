import { beforeEach, describe, expect, it } from 'vitest';
import { documentTexts, uniqueName } from './documentSetSlice';
import { resetStore, useStore } from './store';

const get = () => useStore.getState();
const three = [
  { name: 'a.md', text: 'alpha text' },
  { name: 'b.md', text: 'beta text' },
  { name: 'c.txt', text: 'gamma text' },
];

describe('the document set', () => {
  beforeEach(() => resetStore());

  it('one file replaces the document as before, and the page keeps no set', () => {
    get().setDocument('first', { name: 'x.md' });
    get().openDocumentsIn([{ name: 'y.md', text: 'second' }]);
    expect(get()).toMatchObject({ text: 'second', docName: 'y.md', openDocuments: [] });
    expect(documentTexts(get())).toEqual([{ name: 'y.md', text: 'second', active: true }]);
  });

  it('several files become the set, the first one shown', () => {
    get().openDocumentsIn(three);
    expect(get().openDocuments.map((d) => d.name)).toEqual(['a.md', 'b.md', 'c.txt']);
    expect(get()).toMatchObject({ text: 'alpha text', docName: 'a.md', activeDocument: 0 });
  });

  it('a switch keeps the edits of the document left, and loads the other one', () => {
    get().openDocumentsIn(three);
    get().setDocument('alpha text, edited', { origin: 'editor' });
    get().switchDocument(2);
    expect(get()).toMatchObject({ text: 'gamma text', docName: 'c.txt', activeDocument: 2 });
    expect(get().openDocuments[0]).toMatchObject({ text: 'alpha text, edited' });
    expect(documentTexts(get()).map((d) => d.text)).toEqual(['alpha text, edited', 'beta text', 'gamma text']);
    get().switchDocument(0);
    expect(get().text).toBe('alpha text, edited');
  });

  it('one file opened with a set open is added (a name already open replaces that entry)', () => {
    get().openDocumentsIn(three);
    get().openDocumentsIn([{ name: 'd.md', text: 'delta' }]);
    expect(get().openDocuments).toHaveLength(4);
    expect(get()).toMatchObject({ text: 'delta', activeDocument: 3 });
    get().openDocumentsIn([{ name: 'b.md', text: 'beta two' }]);
    expect(get().openDocuments).toHaveLength(4);
    expect(get()).toMatchObject({ text: 'beta two', activeDocument: 1 });
  });

  it('closing keeps the shown document shown; closing down to one returns to the one-document page', () => {
    get().openDocumentsIn(three);
    get().switchDocument(1);
    get().closeDocument(0);
    expect(get()).toMatchObject({ text: 'beta text', activeDocument: 0 });
    get().closeDocument(0);
    expect(get()).toMatchObject({ text: 'gamma text', docName: 'c.txt', openDocuments: [] });
  });

  it('adding to the one shown document keeps it in the set', () => {
    get().setDocument('pasted', { name: null });
    get().openDocumentsIn([{ name: 'a.md', text: 'alpha' }], { add: true });
    expect(get().openDocuments.map((d) => d.name)).toEqual(['untitled', 'a.md']);
    expect(get()).toMatchObject({ text: 'alpha', activeDocument: 1 });
  });

  it('names stay unique', () => {
    expect(uniqueName('a.md', ['a.md'])).toBe('a (2).md');
    expect(uniqueName('a.md', ['a.md', 'a (2).md'])).toBe('a (3).md');
    expect(uniqueName('README', ['README'])).toBe('README (2)');
  });
});
