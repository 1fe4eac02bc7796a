import { readFileSync } from 'node:fs';
import { beforeEach, describe, expect, it } from 'vitest';
import { resetStore, useStore } from '../../state/store';
import { registryFacts } from '../registryFacts';
import { openableFiles, readDroppedFile } from './files';

// The page's file opening with the real importer (in Node the importer loads pdfjs's legacy build).
const fixtureFile = (name: string, type: string) => new File([readFileSync(new URL(`../../../e2e/files/${name}`, import.meta.url))], name, { type });

describe('readDroppedFile', () => {
  beforeEach(() => resetStore());

  it('accepts PDF and DOCX in the file picker (the extensions the build writes for it)', () => {
    expect(openableFiles(registryFacts().importableExtensions).split(',')).toEqual(expect.arrayContaining(['.pdf', '.docx', '.md', '.py', '.txt']));
  });

  it('opens a PDF with its page starts and says what it dropped', async () => {
    await readDroppedFile(fixtureFile('travel-policy.pdf', 'application/pdf'));
    const s = useStore.getState();
    expect(s.docName).toBe('travel-policy.pdf');
    expect(s.text.startsWith('Travel Policy\n')).toBe(true);
    expect(s.pageStarts).toHaveLength(4);
    expect(s.notice).toContain('Dropped 8 repeated header/footer lines');
  });

  it('refuses a file over the page\'s cap in one line without reading it, and keeps the current document', async () => {
    useStore.getState().setDocument('my notes', { name: 'notes.txt' });
    const huge = new File(['x'], 'dump.txt', { type: 'text/plain' });
    Object.defineProperty(huge, 'size', { value: 3.1 * 1024 ** 3 });
    let read = false;
    Object.defineProperty(huge, 'arrayBuffer', { value: async () => ((read = true), new ArrayBuffer(0)) });
    await readDroppedFile(huge);
    const s = useStore.getState();
    expect(read).toBe(false);
    expect(s).toMatchObject({ text: 'my notes', docName: 'notes.txt' });
    expect(s.notice).toBe('“dump.txt” is 3.1 GiB; the page opens files up to 64 MiB (the chunkscope CLI reads larger ones with --max-bytes). The current document is unchanged.');
  });

  it('keeps the current document when a file cannot be read', async () => {
    useStore.getState().setDocument('my notes', { name: 'notes.txt' });
    await readDroppedFile(fixtureFile('encrypted.pdf', 'application/pdf'));
    const s = useStore.getState();
    expect(s).toMatchObject({ text: 'my notes', docName: 'notes.txt', pageStarts: null });
    expect(s.notice).toBe('“encrypted.pdf” is encrypted (password protected); remove the password and open it again. The current document is unchanged.');
  });

  it('switches a converted DOCX to the markdown strategy; a plain text file keeps the chosen strategy', async () => {
    useStore.getState().setConfig({ strategy: 'sentence' });
    await readDroppedFile(new File(['plain words'], 'a.txt'));
    expect(useStore.getState().config.strategy).toBe('sentence');
    await readDroppedFile(fixtureFile('expense-guide.docx', 'application/vnd.openxmlformats-officedocument.wordprocessingml.document'));
    expect(useStore.getState().config.strategy).toBe('markdown');
    expect(useStore.getState().text.startsWith('# Expense Guide\n')).toBe(true);
  });

  it('a PDF opened after an HTML file is not split by the HTML splitter, and the HTML file’s notice goes', async () => {
    await readDroppedFile(new File(['<h1>Title</h1><p>Body text.</p>'], 'page.html'));
    expect(useStore.getState().config.strategy).toBe('html');
    expect(useStore.getState().notice).toContain('page.html');
    await readDroppedFile(fixtureFile('travel-policy.pdf', 'application/pdf'));
    const s = useStore.getState();
    expect(s.config.strategy).toBe('recursive');
    expect(s.notice).not.toContain('page.html');
    expect(s.notice).toContain('Strategy back to recursive');
  });

  it('lets the newest open win when an older, slower one finishes later', async () => {
    const slow = readDroppedFile(fixtureFile('travel-policy.pdf', 'application/pdf'));
    const fast = readDroppedFile(new File(['the file opened last'], 'last.txt'));
    await Promise.all([slow, fast]);
    expect(useStore.getState()).toMatchObject({ text: 'the file opened last', docName: 'last.txt', pageStarts: null });
  });
});
