import { test, expect } from './fixtures';
import { controls, expectEngineChunks, getDocument, openApp, pageOptions, pasteDocument, typeNumber } from './app';
import { chunk } from '../src/core/index';
import { validateEvalOptions } from '../src/core/eval/index';
import { RetrievalIndex } from '../src/core/retrievers/index';
import type { Page } from '@playwright/test';

// The evaluation lab as a person uses it: ask the document a question and see what retrieval returns; write a golden
// set by selecting answers in the editor; run it and read why a question failed; sweep sizes and apply a point; pin a
// configuration and compare. The probe's ranking is checked against the library's RetrievalIndex (the CLI's engine)
// run in Node on the same text and options.

const lines = [
  'Refunds are issued within thirty days of purchase when the original receipt is shown at the desk.',
  'Shipping is free for orders above fifty euros; otherwise a flat fee of four euros applies to every parcel.',
  'Gift cards cannot be refunded or exchanged for cash under any circumstances whatsoever.',
  'Our support team answers email within two working days and picks up phone calls at once.',
  'Returns of opened software are accepted only when the disc itself turns out to be defective.',
  'Store opening hours are nine to six on weekdays and ten to four on Saturdays; closed on Sundays.',
];
const text = lines.join('\n\n');

/**
 * Select text with the mouse, as a person does: a triple click selects the (model) line holding `first`; with `last`,
 * a shift-click at the right end of the row holding `last` extends the selection to the end of that line.
 */
async function selectLines(page: Page, first: string, last?: string): Promise<void> {
  const row = (t: string) => controls(page).editor.locator('.view-line', { hasText: t }).first();
  await row(first).click({ clickCount: 3 });
  if (last) {
    // The end of the row's text: just past its last text span.
    const box = (await row(last).locator('span span').last().boundingBox())!;
    await page.keyboard.down('Shift');
    await page.mouse.click(box.x + box.width + 2, box.y + box.height / 2);
    await page.keyboard.up('Shift');
  }
}

async function probeRanking(page: Page): Promise<[number, number][]> {
  return page.getByTestId('probe-hits').locator('.lab-hit-row').evaluateAll((rows) => rows.map((r) => [Number(r.getAttribute('data-start')), Number(r.getAttribute('data-end'))] as [number, number]));
}

async function nodeRanking(page: Page, query: string, k: number): Promise<[number, number][]> {
  const doc = await getDocument(page);
  const options = await pageOptions(page);
  const chunks = await chunk(doc, options);
  const settings = validateEvalOptions({ retriever: 'bm25', chunksInContext: k });
  const index = await RetrievalIndex.build([{ id: 'document', text: doc, chunks }], { ...settings, retrieval: options.retrieval ?? 'chunks' });
  return (await index.search(query, k)).map((h) => [index.units[h.unit]!.start, index.units[h.unit]!.end]);
}

test('probe, golden set, failure explained, sweep, apply a point, pin and compare', async ({ page }) => {
  await openApp(page);
  await pasteDocument(page, text);
  const c = controls(page);
  await typeNumber(c.sizeBox, 120);
  await typeNumber(c.overlapBox, 0);
  await expectEngineChunks(page);

  // Open the lab: the query probe.
  await page.getByRole('button', { name: 'Evaluation lab' }).click();
  await page.getByRole('searchbox', { name: 'Question' }).fill('can gift cards be refunded');
  const k = page.getByRole('spinbutton', { name: 'k', exact: true });
  await typeNumber(k, 3);
  // BM25 returns the chunks sharing a word with the question (at most k).
  await expect(page.getByTestId('probe-hits').locator('li')).toHaveCount(2);
  await expect(page.getByTestId('probe-hits').locator('li').first()).toContainText('Gift cards');
  await expect(c.editor.locator('.lab-badge').first()).toBeVisible();
  // Same ranking as the library's RetrievalIndex (what `chunkscope eval` runs) for the same configuration.
  await expect.poll(() => probeRanking(page)).toEqual(await nodeRanking(page, 'can gift cards be refunded', 3));
  // A slider move re-ranks with the chunks.
  await typeNumber(c.sizeBox, 250);
  await expectEngineChunks(page);
  await expect.poll(() => probeRanking(page)).toEqual(await nodeRanking(page, 'can gift cards be refunded', 3));

  // Golden set: a question per answer selected in the editor.
  await page.getByRole('tab', { name: 'Golden set' }).click();
  const newQuestion = page.getByRole('textbox', { name: 'New question' });
  await newQuestion.fill('Can gift cards be refunded?');
  await newQuestion.press('Enter');
  await selectLines(page, 'Gift cards cannot');
  await page.getByRole('button', { name: 'Mark as answer' }).click();
  await expect(page.getByTestId('golden-questions')).toContainText('“Gift cards cannot be refunded');
  // A second question whose answer runs over three paragraphs: with small chunks and k = 1 it cannot be whole.
  await newQuestion.fill('What do shipping and refunds cost?');
  await newQuestion.press('Enter');
  await selectLines(page, 'Refunds are issued', 'every parcel');
  await page.getByRole('button', { name: 'Mark as answer' }).click();
  await typeNumber(c.sizeBox, 120);
  await expectEngineChunks(page);
  await typeNumber(k, 1);
  await page.getByRole('button', { name: 'Run golden set' }).click();
  await expect(page.getByTestId('lab-means')).toBeVisible();
  await expect(page.getByTestId('lab-index-cost')).toContainText('2 questions');
  // The failing question, clicked: its failure in words, its answer drawn in the editor.
  await page.getByRole('button', { name: /What do shipping and refunds cost/ }).click();
  await expect(page.getByTestId('failure-reasons')).toContainText(/boundary|rank/);
  await expect(c.editor.locator('.lab-answer').first()).toBeVisible();
  await expect(c.editor.locator('.lab-badge-retrieved').first()).toBeVisible();

  // Sweep: 2 sizes × 2 overlaps, progress, charts; clicking a point applies it.
  await page.getByRole('tab', { name: 'Sweep' }).click();
  await page.getByRole('textbox', { name: 'Sweep sizes' }).fill('100, 300');
  await page.getByRole('textbox', { name: 'Sweep overlaps' }).fill('0, 20');
  await page.getByRole('button', { name: 'Run sweep (4)' }).click();
  await expect(page.getByTestId('sweep-status')).toContainText('4 configurations in');
  await expect(page.getByTestId('chart-recall').locator('circle')).toHaveCount(4);
  await page.getByTestId('chart-recall').locator('circle[data-point="3"]').click(); // size 300, overlap 20
  await expect(c.sizeBox).toHaveValue('300');
  await expect(c.overlapBox).toHaveValue('20');
  await expectEngineChunks(page);

  // Pin as A, change to B: boundaries only in A / only in B drawn, metrics side by side, per-question winners.
  await page.getByRole('tab', { name: 'Compare' }).click();
  await page.getByRole('button', { name: 'Pin current as A' }).click();
  await typeNumber(c.sizeBox, 100);
  await typeNumber(c.overlapBox, 0);
  await expectEngineChunks(page);
  await expect(page.getByTestId('compare-table')).toBeVisible();
  await expect(page.getByTestId('compare-winners')).toContainText('Per question');
  await expect(c.editor.locator('.lab-bnd-b').first()).toBeVisible();
  await expect.poll(() => new URL(page.url()).searchParams.get('pin')).toContain('size=300');

  // The share link restores the pinned configuration.
  await page.goto(page.url());
  await expect(page.getByRole('tab', { name: /Compare · A pinned/ })).toBeVisible();
});
