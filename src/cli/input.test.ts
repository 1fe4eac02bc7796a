import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { chunk } from '../core/index';
import { CliError, importInput } from './input';

const fixture = (name: string) => new Uint8Array(readFileSync(new URL(`../../e2e/files/${name}`, import.meta.url)));

describe('CLI input through the importer', () => {
  it('reads a PDF with its page starts, which chunk options take as they are', async () => {
    const doc = await importInput(fixture('travel-policy.pdf'), 'policy.pdf', { dropPageFurniture: true });
    expect(doc.pageStarts?.[0]).toBe(0);
    expect(doc.text).not.toContain('ACME Travel Policy');
    const chunks = await chunk(doc.text, { strategy: 'recursive', size: 400, overlap: 0, pageStarts: doc.pageStarts ?? undefined });
    const starts = doc.pageStarts!;
    const pageAt = (offset: number) => starts.filter((s) => s <= offset).length; // 1-based
    for (const c of chunks) {
      expect(c.text).toBe(doc.text.slice(c.start, c.end));
      // The pages a chunk touches run from the page of its first character to that of its last.
      const first = pageAt(c.start);
      const last = pageAt(c.end - 1);
      expect(c.metadata?.pages).toEqual(Array.from({ length: last - first + 1 }, (_, i) => first + i));
    }
    // Text that runs over a page break gives a chunk on two pages.
    expect(chunks.some((c) => (c.metadata?.pages?.length ?? 0) > 1)).toBe(true);
  });

  it('reads a DOCX as markdown', async () => {
    const doc = await importInput(fixture('expense-guide.docx'), 'guide.docx');
    expect(doc.text.startsWith('# Expense Guide\n')).toBe(true);
  });

  it('turns an unreadable file into one CliError line', async () => {
    await expect(importInput(fixture('encrypted.pdf'), 'secret.pdf')).rejects.toThrow(CliError);
    await expect(importInput(fixture('encrypted.pdf'), 'secret.pdf')).rejects.toThrow(/“secret\.pdf” is encrypted/);
    await expect(importInput(new Uint8Array([104, 0, 105]), 'standard input')).rejects.toThrow(/binary/);
  });
});
