import type { Page } from '@playwright/test';
import { test, expect } from './fixtures';
import { FIRST_SAMPLE } from '../src/ui/samples';
import './hook';

/**
 * Issue 29: the page against damaged stored records. Each case writes one corruption straight into what the page
 * stores (IndexedDB `chunkscope`/`documents`: the meta record, the text's parts, the earlier one-record layout, the
 * document a link replaced; localStorage: settings and the pending edit), reloads the one reused page, and asserts
 * a rendered page (never blank), the notice where one is due (every damaged shape gets one; a `null` meta record
 * was dropped without a word), and the document: the stored one when it is whole, else the sample, never junk.
 * The fixture asserts that no request left the origin and no exception escaped.
 */

const SAMPLE = FIRST_SAMPLE.text;
const MINE = 'My stored document.\n\nIt must survive.\n';
const UNREADABLE_DOC = /The saved document was unreadable and has been discarded\./;
const UNREADABLE_SETTINGS = /Saved settings were unreadable \(.+\) and have been reset\./;
const DROPPED_SETTINGS = /Saved settings that were not valid were reset: /;

type Key = string | [string, number];
interface Corruption {
  name: string;
  /** IndexedDB records to write (after the store is cleared); undefined value: the key is deleted. */
  records?: [Key, unknown][];
  /** localStorage items to set (after it is cleared). */
  items?: [string, string][];
  notice?: RegExp;
  /** The document shown: 'mine' (MINE), 'sample', or an exact text. */
  document: 'mine' | 'sample' | { exact: string };
  /** The offer to restore a document a link replaced. */
  offer?: boolean;
}

const meta = (over: Record<string, unknown> = {}) => ({ name: 'mine.md', pageStarts: null, revision: 3, parts: 1, length: MINE.length, savedAt: 1, ...over });
const whole: [Key, unknown][] = [[['current.part', 0], MINE], ['current.meta', meta()]];

const CASES: Corruption[] = [
  { name: 'intact (control)', records: whole, document: 'mine' },
  { name: 'meta record null', records: [[['current.part', 0], MINE], ['current.meta', null]], notice: UNREADABLE_DOC, document: 'sample' },
  { name: 'meta record a number', records: [[['current.part', 0], MINE], ['current.meta', 42]], notice: UNREADABLE_DOC, document: 'sample' },
  { name: 'meta record a string', records: [['current.meta', 'junk']], notice: UNREADABLE_DOC, document: 'sample' },
  { name: 'meta record an array', records: [['current.meta', [1, 2]]], notice: UNREADABLE_DOC, document: 'sample' },
  { name: 'meta record empty object', records: [['current.meta', {}]], notice: UNREADABLE_DOC, document: 'sample' },
  { name: 'part missing', records: [['current.meta', meta()]], notice: UNREADABLE_DOC, document: 'sample' },
  { name: 'part a number', records: [[['current.part', 0], 7], ['current.meta', meta()]], notice: UNREADABLE_DOC, document: 'sample' },
  { name: 'part null', records: [[['current.part', 0], null], ['current.meta', meta()]], notice: UNREADABLE_DOC, document: 'sample' },
  { name: 'length wrong', records: [[['current.part', 0], MINE], ['current.meta', meta({ length: 3 })]], notice: UNREADABLE_DOC, document: 'sample' },
  { name: 'parts count too high', records: [[['current.part', 0], MINE], ['current.meta', meta({ parts: 2 })]], notice: UNREADABLE_DOC, document: 'sample' },
  { name: 'parts count negative', records: [[['current.part', 0], MINE], ['current.meta', meta({ parts: -1 })]], notice: UNREADABLE_DOC, document: 'sample' },
  { name: 'parts count a string', records: [[['current.part', 0], MINE], ['current.meta', meta({ parts: '1' })]], notice: UNREADABLE_DOC, document: 'sample' },
  { name: 'name a number', records: [[['current.part', 0], MINE], ['current.meta', meta({ name: 42 })]], notice: UNREADABLE_DOC, document: 'sample' },
  { name: 'name an object', records: [[['current.part', 0], MINE], ['current.meta', meta({ name: { toString: 1 } })]], notice: UNREADABLE_DOC, document: 'sample' },
  { name: 'page starts junk (dropped, text kept)', records: [[['current.part', 0], MINE], ['current.meta', meta({ pageStarts: [5, -1, 'x'] })]], document: 'mine' },
  { name: 'revision junk (read as 0, text kept)', records: [[['current.part', 0], MINE], ['current.meta', meta({ revision: 'NaN' })]], document: 'mine' },
  { name: 'earlier layout whole', records: [['current', { text: MINE, name: 'mine.md', revision: 1 }]], document: 'mine' },
  { name: 'earlier layout null', records: [['current', null]], notice: UNREADABLE_DOC, document: 'sample' },
  { name: 'earlier layout text a number', records: [['current', { text: 5, name: null }]], notice: UNREADABLE_DOC, document: 'sample' },
  { name: 'earlier layout a string', records: [['current', 'junk']], notice: UNREADABLE_DOC, document: 'sample' },
  { name: 'earlier layout newer than the meta record wins', records: [...whole, ['current', { text: 'newer\n', name: null, revision: 9 }]], document: { exact: 'newer\n' } },
  { name: 'kept previous document offered', records: [...whole, ['previous', { text: 'before the link\n', name: null }]], document: 'mine', offer: true },
  { name: 'settings not JSON', records: whole, items: [['chunkscope.settings.v1', '{not json']], notice: UNREADABLE_SETTINGS, document: 'mine' },
  { name: 'settings null', records: whole, items: [['chunkscope.settings.v1', 'null']], notice: UNREADABLE_SETTINGS, document: 'mine' },
  { name: 'settings an array', records: whole, items: [['chunkscope.settings.v1', '[1,2]']], notice: UNREADABLE_SETTINGS, document: 'mine' },
  { name: 'settings a number', records: whole, items: [['chunkscope.settings.v1', '42']], notice: UNREADABLE_SETTINGS, document: 'mine' },
  { name: 'settings strategy a path', records: whole, items: [['chunkscope.settings.v1', '{"strategy":"../../x"}']], notice: DROPPED_SETTINGS, document: 'mine' },
  { name: 'settings size negative', records: whole, items: [['chunkscope.settings.v1', '{"size":-5}']], notice: DROPPED_SETTINGS, document: 'mine' },
  { name: 'settings size a string', records: whole, items: [['chunkscope.settings.v1', '{"size":"abc"}']], notice: DROPPED_SETTINGS, document: 'mine' },
  { name: 'settings unit null', records: whole, items: [['chunkscope.settings.v1', '{"unit":null}']], notice: DROPPED_SETTINGS, document: 'mine' },
  { name: 'settings __proto__', records: whole, items: [['chunkscope.settings.v1', '{"__proto__":{"polluted":1},"size":300}']], document: 'mine' },
  { name: 'settings 1 MB of junk', records: whole, items: [['chunkscope.settings.v1', '{'.repeat(1_000_000)]], notice: UNREADABLE_SETTINGS, document: 'mine' },
  { name: 'pending edit not JSON (dropped)', records: whole, items: [['chunkscope.pending-document.v1', 'junk']], document: 'mine' },
  { name: 'pending edit text a number (dropped)', records: whole, items: [['chunkscope.pending-document.v1', '{"text":5,"name":null,"baseRevision":9}']], document: 'mine' },
  { name: 'pending edit older than the stored one (dropped)', records: whole, items: [['chunkscope.pending-document.v1', '{"text":"old","name":null,"baseRevision":1}']], document: 'mine' },
  { name: 'pending edit newer (kept)', records: whole, items: [['chunkscope.pending-document.v1', '{"text":"edit\\n","name":null,"baseRevision":3}']], document: { exact: 'edit\n' } },
  { name: 'meta null and settings junk: both said', records: [['current.meta', null]], items: [['chunkscope.settings.v1', 'null']], notice: /unreadable \(not an object\) and have been reset\. The saved document was unreadable/, document: 'sample' },
];

/** Clear what the page stores, then write `c`'s records and items (the page's own database, opened as it opens it). */
async function writeCorruption(page: Page, c: Corruption): Promise<void> {
  await page.evaluate(
    async ({ records, items }) => {
      localStorage.clear();
      for (const [key, value] of items) localStorage.setItem(key, value);
      const database = await new Promise<IDBDatabase>((resolve, reject) => {
        const open = indexedDB.open('chunkscope', 1);
        open.onupgradeneeded = () => open.result.createObjectStore('documents');
        open.onsuccess = () => resolve(open.result);
        open.onerror = () => reject(open.error);
      });
      await new Promise<void>((resolve, reject) => {
        const tx = database.transaction('documents', 'readwrite');
        const store = tx.objectStore('documents');
        store.clear();
        for (const [key, value] of records) store.put(value, key as IDBValidKey);
        tx.oncomplete = () => resolve();
        tx.onerror = () => reject(tx.error);
      });
      database.close();
    },
    { records: c.records ?? [], items: c.items ?? [] },
  );
}

test('damaged stored records: a rendered page, a notice for each damaged shape, the stored document or the sample', async ({ page }) => {
  test.setTimeout(150_000);
  expect(CASES.length).toBeGreaterThanOrEqual(31);
  await page.goto('/');
  await page.waitForFunction(() => typeof window.__chunkscope?.getDocument === 'function');
  for (const c of CASES) {
    // The page must not save over the corruption as it goes away: a blank tab first, then the write, then the app.
    await page.goto('/favicon.svg');
    await writeCorruption(page, c);
    await page.goto('/', { waitUntil: 'commit' });
    await page.waitForFunction(() => typeof window.__chunkscope?.getDocument === 'function');
    await expect(page.locator('#root .app header').first(), c.name).toBeVisible();
    const text = await page.evaluate(() => window.__chunkscope!.getDocument());
    if (c.document === 'mine') expect(text, c.name).toBe(MINE);
    else if (c.document === 'sample') expect(text, c.name).toBe(SAMPLE);
    else expect(text, c.name).toBe(c.document.exact);
    const notice = page.locator('.notice:not(.notice-previous)');
    if (c.notice) await expect(notice, c.name).toHaveText(c.notice);
    else await expect(notice, c.name).toBeHidden();
    await expect(page.getByTestId('previous-document'), c.name).toBeVisible({ visible: c.offer === true });
    expect(await page.evaluate(() => ({} as Record<string, unknown>).polluted), c.name).toBeUndefined();
  }
});
