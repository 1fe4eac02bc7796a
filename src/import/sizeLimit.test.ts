import { describe, expect, it } from 'vitest';
import { fileTooLargeMessage, PAGE_MAX_PASTE_CHARS, pasteRefusal } from './sizeLimit';

describe('the page\'s input caps', () => {
  it('takes a paste up to the cap and refuses a longer one in one line that says nothing was pasted', () => {
    expect(pasteRefusal(0)).toBeNull();
    expect(pasteRefusal(PAGE_MAX_PASTE_CHARS)).toBeNull();
    expect(pasteRefusal(80 * 2 ** 20)).toBe('The pasted text is 80 Mi characters; the page takes pastes up to 64 Mi (the chunkscope CLI reads larger files). Nothing was pasted.');
    expect(pasteRefusal(PAGE_MAX_PASTE_CHARS + 1)).toMatch(/^The pasted text is 64 Mi characters;/);
  });

  it('names a file over the cap with its size in binary units', () => {
    expect(fileTooLargeMessage('a.txt', 3.1 * 1024 ** 3)).toContain('“a.txt” is 3.1 GiB; the page opens files up to 64 MiB');
  });
});
