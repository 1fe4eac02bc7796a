import { test, expect } from './fixtures';
import { controls, expectEngineChunks, openApp, typeNumber } from './app';
import { evaluate, formatGoldenSet, parseGoldenSet, type GoldenQuestion } from '../src/core/eval/index';
import { formatPercent } from '../src/state/labBaseline';
import type { Page } from '@playwright/test';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

// The lab over a corpus, as a person uses it: open three documents at once, import a Chroma CSV written for them
// (plus questions of a corpus that is not open: one line says they are set aside), run the golden set, read the table
// per document, click a question of another document (that document is shown, its answer marked), export the set
// again (each question names its own document). The pooled means are checked against the library's evaluate (what
// `chunkscope eval <folder>` runs) over the same three texts and options.

const documents = [
  {
    name: 'refunds.txt',
    text: [
      'Refunds are issued within thirty days of purchase when the original receipt is shown at the desk.',
      'Gift cards cannot be refunded or exchanged for cash under any circumstances whatsoever.',
      'A refund always goes back to the card or account that paid for the order.',
    ].join('\n\n'),
  },
  {
    name: 'shipping.txt',
    text: [
      'Shipping is free for orders above fifty euros; otherwise a flat fee of four euros applies to every parcel.',
      'Parcels leave the warehouse within two working days of the order.',
      'Tracking numbers arrive by email once the carrier has scanned the parcel.',
    ].join('\n\n'),
  },
  {
    name: 'support.txt',
    text: [
      'Our support team answers email within two working days and picks up phone calls at once.',
      'The phone line opens at nine and closes at six on weekdays.',
      'Chat is reserved for customers who are signed in to their account.',
    ].join('\n\n'),
  },
];

const span = (doc: number, s: string) => {
  const text = documents[doc]!.text;
  const start = text.indexOf(s);
  if (start < 0) throw new Error(`not in ${documents[doc]!.name}: ${s}`);
  return { start, end: start + s.length, content: s };
};

const questions: GoldenQuestion[] = [
  // refunds.txt: both answers are whole paragraphs whose words the questions share: retrieved at k = 1.
  { question: 'Can gift cards be refunded for cash?', references: [span(0, 'Gift cards cannot be refunded or exchanged for cash')], corpusId: 'refunds.txt' },
  { question: 'Refunds issued within how many days of purchase?', references: [span(0, 'within thirty days of purchase')], corpusId: 'refunds' },
  // shipping.txt: one question.
  { question: 'When do parcels leave the warehouse?', references: [span(1, 'Parcels leave the warehouse within two working days')], corpusId: 'shipping.txt' },
  // support.txt: the question's words point at another paragraph than its answer: a miss at k = 1.
  { question: 'Who answers email within two working days?', references: [span(2, 'The phone line opens at nine')], corpusId: 'support.txt' },
  // A corpus that is not open: set aside, never scored.
  { question: 'What was the revenue in 2021?', references: [{ start: 0, end: 7, content: 'Revenue' }], corpusId: 'finance' },
  { question: 'What was the margin in 2021?', references: [{ start: 0, end: 6, content: 'Margin' }], corpusId: 'finance' },
];

async function openFiles(page: Page): Promise<void> {
  const [chooser] = await Promise.all([page.waitForEvent('filechooser'), page.getByRole('button', { name: 'Open file…', exact: true }).click()]);
  expect(chooser.isMultiple()).toBe(true);
  await chooser.setFiles(documents.map((d) => ({ name: d.name, mimeType: 'text/plain', buffer: Buffer.from(d.text) })));
}

async function importCsv(page: Page, csv: string): Promise<void> {
  const [chooser] = await Promise.all([page.waitForEvent('filechooser'), page.getByRole('button', { name: 'Import…' }).click()]);
  await chooser.setFiles({ name: 'chroma.csv', mimeType: 'text/csv', buffer: Buffer.from(csv) });
}

/** The figures of a row of the per-document table: its questions and its metrics, as shown. */
async function row(page: Page, key: string): Promise<Record<string, string>> {
  const tr = page.getByTestId('lab-by-document').locator(`tr[data-document="${key}"], tr[data-row="${key}"]`);
  const cells = await tr.locator('td').allTextContents();
  const metrics = await tr.locator('td[data-metric]').evaluateAll((tds) => Object.fromEntries(tds.map((td) => [td.getAttribute('data-metric')!, td.textContent!.trim()])));
  return { questions: cells[0]!.trim(), ...metrics };
}

test('three documents, a Chroma CSV for them, the golden set run as one index, read per document', async ({ page }) => {
  await page.setViewportSize({ width: 1440, height: 900 });
  await openApp(page);
  const c = controls(page);
  await openFiles(page);
  const tabs = page.getByRole('tablist', { name: 'Open documents' }).getByRole('tab');
  await expect(tabs).toHaveText(['refunds.txt', 'shipping.txt', 'support.txt']);
  await expect(tabs.first()).toHaveAttribute('aria-selected', 'true');
  await typeNumber(c.sizeBox, 120);
  await typeNumber(c.overlapBox, 0);
  await expectEngineChunks(page);

  await page.getByRole('button', { name: 'Evaluation lab' }).click();
  await page.getByRole('tab', { name: 'Golden set' }).click();
  await importCsv(page, formatGoldenSet(questions, 'csv'));
  await expect(page.getByTestId('lab-set-aside')).toHaveText('2 questions name a corpus that is not open: finance (set aside, not scored)');
  await expect(page.getByTestId('golden-questions').locator('> li')).toHaveCount(4);
  await typeNumber(page.getByRole('spinbutton', { name: 'k', exact: true }), 1);
  await page.getByRole('button', { name: 'Run golden set' }).click();

  const table = page.getByTestId('lab-by-document');
  await expect(table.locator('tbody tr')).toHaveCount(3);
  expect(await row(page, 'refunds.txt')).toMatchObject({ questions: '2', recall: formatPercent(1) });
  expect(await row(page, 'shipping.txt')).toMatchObject({ questions: '1', recall: formatPercent(1) });
  expect(await row(page, 'support.txt')).toMatchObject({ questions: '1', recall: formatPercent(0) });
  // Pooled over the four questions (not the finance ones), as the library evaluates the same corpus.
  const library = await evaluate(
    documents.map((d) => ({ id: d.name, text: d.text, path: d.name })),
    questions,
    { strategy: 'recursive', size: 120, overlap: 0, retriever: 'bm25', chunksInContext: 1 },
  );
  expect(library.measured).toBe(4);
  const pooled = await row(page, 'pooled');
  expect(pooled).toMatchObject({ questions: '4', recall: formatPercent(library.means.recall), iou: formatPercent(library.means.iou) });
  expect(await page.getByTestId('lab-by-document').locator('tr[data-row="spread"] td[data-metric="recall"]').textContent()).toBe(
    `${formatPercent(library.spread.recall.mean)} ± ${formatPercent(library.spread.recall.std)}`,
  );
  if (process.env.CORPUS_SHOTS) await page.screenshot({ path: `${process.env.CORPUS_SHOTS}/lab-corpus-1440.png` });

  // A question of another document, clicked: that document is shown, its answer marked in the editor.
  await page.getByRole('button', { name: /Who answers email/ }).click();
  await expect(tabs.nth(2)).toHaveAttribute('aria-selected', 'true');
  await expect(c.editor.locator('.lab-answer').first()).toBeVisible();
  await expect(c.editor.locator('.lab-answer').first()).toContainText('phone line');
  // The run stays on screen across the switch (same documents, same configuration).
  await expect(table.locator('tbody tr')).toHaveCount(3);

  // Export as Chroma CSV: each question names its own document (what `chunkscope eval <folder>` matches).
  await page.getByRole('combobox', { name: 'Export format' }).selectOption('csv');
  const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Export', exact: true }).click()]);
  const exported = parseGoldenSet(await readDownload(download), { name: 'golden-set.csv' });
  expect(exported.map((q) => q.corpusId)).toEqual(['refunds.txt', 'refunds', 'shipping.txt', 'support.txt', 'finance', 'finance']);

  // Compare over the set: A (size 120) pinned, B at size 40; every open document's four questions are counted,
  // not only the two of the document shown.
  await page.getByRole('tab', { name: 'Compare' }).click();
  await page.getByRole('button', { name: 'Pin current as A' }).click();
  await typeNumber(c.sizeBox, 40);
  const winners = page.getByTestId('compare-winners');
  await expect(winners).toContainText('Per question (Recall)', { timeout: 30_000 });
  const counts = (await winners.textContent())!.match(/higher on (\d+), lower on (\d+), the same on (\d+)/)!;
  expect(Number(counts[1]) + Number(counts[2]) + Number(counts[3])).toBe(4);
  await page.getByRole('button', { name: 'Unpin', exact: true }).click();
  await typeNumber(c.sizeBox, 120);
  await page.getByRole('tab', { name: 'Golden set' }).click();

  // Keyboard: arrows move between the tabs, Enter shows one, Delete closes it; down to one document, no tabs.
  await tabs.nth(2).focus();
  await page.keyboard.press('ArrowLeft');
  await page.keyboard.press('Enter');
  await expect(tabs.nth(1)).toHaveAttribute('aria-selected', 'true');
  await expect(page.locator('.doc-name')).toContainText('shipping.txt');
  if (process.env.CORPUS_SHOTS) {
    await page.setViewportSize({ width: 1280, height: 720 });
    await page.screenshot({ path: `${process.env.CORPUS_SHOTS}/lab-corpus-1280.png` });
  }
  await page.keyboard.press('Delete');
  await expect(tabs).toHaveCount(2);
  await page.getByRole('button', { name: 'Close support.txt' }).click();
  await expect(page.getByTestId('document-tabs')).toHaveCount(0);
  await expect(page.locator('.doc-name')).toContainText('refunds.txt');
});

async function readDownload(download: import('@playwright/test').Download): Promise<string> {
  const stream = await download.createReadStream();
  const parts: Buffer[] = [];
  for await (const part of stream) parts.push(part as Buffer);
  return Buffer.concat(parts).toString('utf8');
}

test('each open document keeps its scroll position and its edits across switches', async ({ page }) => {
  await openApp(page);
  const c = controls(page);
  const long = Array.from({ length: 200 }, (_, i) => `Line ${i + 1} of the long document.`).join('\n');
  const [chooser] = await Promise.all([page.waitForEvent('filechooser'), page.getByRole('button', { name: 'Open file…', exact: true }).click()]);
  await chooser.setFiles([
    { name: 'long.txt', mimeType: 'text/plain', buffer: Buffer.from(long) },
    { name: 'short.txt', mimeType: 'text/plain', buffer: Buffer.from('A short document.') },
  ]);
  const tabs = page.getByRole('tablist', { name: 'Open documents' }).getByRole('tab');
  await expect(tabs).toHaveCount(2);
  await expect(c.editor.locator('.view-line', { hasText: 'Line 1 of' })).toBeVisible();
  // Down to line 150 of the long document, then to the short one (edited) and back.
  await c.editor.locator('.view-line').first().click();
  await page.keyboard.press('Control+End');
  await page.keyboard.press('PageUp');
  await expect(c.editor.locator('.view-line', { hasText: 'Line 1 of' })).toHaveCount(0);
  const seen = await c.editor.locator('.view-line').first().textContent();
  await tabs.nth(1).click();
  await expect(page.locator('.doc-name')).toContainText('short.txt');
  await c.editor.locator('.view-line').first().click();
  await page.keyboard.press('End');
  await page.keyboard.type(' Edited.');
  await tabs.nth(0).click();
  await expect(page.locator('.doc-name')).toContainText('long.txt');
  await expect(c.editor.locator('.view-line').first()).toHaveText(seen!);
  await tabs.nth(1).click();
  await expect(c.editor.locator('.view-line').first()).toContainText('A short document. Edited.');
});

test('"Open folder…" takes the files of known document types only, and says what it skipped', async ({ page }) => {
  const dir = mkdtempSync(join(tmpdir(), 'chunkscope-folder-'));
  writeFileSync(join(dir, 'alpha.txt'), 'Alpha document text.');
  writeFileSync(join(dir, 'beta.md'), '# Beta\n\nBeta document text.');
  writeFileSync(join(dir, 'LICENSE'), 'Permission is hereby granted.');
  writeFileSync(join(dir, 'logo.png'), Buffer.from([0x89, 0x50, 0x4e, 0x47]));
  await openApp(page);
  await page.getByTestId('open-folder').setInputFiles(dir);
  const tabs = page.getByRole('tablist', { name: 'Open documents' }).getByRole('tab');
  await expect(tabs).toHaveText(['alpha.txt', 'beta.md']);
  await expect(page.getByText('Skipped 2 files of no known document type: LICENSE, logo.png.')).toBeVisible();
});
