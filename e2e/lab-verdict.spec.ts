import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { expect, type Page } from '@playwright/test';
import { controls, expectEngineChunks, openApp, pasteDocument, typeNumber } from './app';
import { guardedTest } from './fixtures';
import { startFakeLlmServer, type FakeLlmServer } from '../src/testing/fakeLlmServer';

/**
 * The lab's verdict, reports and generated questions as a person uses them: compare two configurations on a
 * document with a golden set and read the verdict with its interval; compare a configuration with itself (no
 * significant difference); export the comparison's report and open the downloaded file in the browser (the means
 * and the verdict, no script); generate questions with the project's fake OpenAI-compatible server, accept one,
 * reject one.
 */

let server: FakeLlmServer;

/** No uncaught exception, and no request leaves the page's origin but to the fake server (./fixtures.ts). */
const test = guardedTest(() => [new URL(server.baseUrl).origin]);

test.describe.configure({ mode: 'serial' });
test.beforeAll(async ({ baseURL }) => {
  server = await startFakeLlmServer(0, { corsOrigin: new URL(baseURL!).origin });
});
test.afterAll(() => server.close());

// 24 paragraphs, each one fact in its own words; a question per paragraph whose answer is the whole paragraph.
const SUBJECTS = ['falcon', 'harbour', 'violin', 'glacier', 'orchard', 'lantern', 'compass', 'meadow', 'quarry', 'tundra', 'beacon', 'canyon', 'pottery', 'saffron', 'turbine', 'walnut', 'cathedral', 'dolphin', 'emerald', 'furnace', 'granary', 'hammock', 'igloo', 'juniper'];
const paragraphs = SUBJECTS.map((s, i) => `The ${s} registry lists ${i + 3} ${s} keepers who meet every ${['Monday', 'Tuesday', 'Friday'][i % 3]} at noon.`);
const text = paragraphs.join('\n\n');
const goldenJson = JSON.stringify(
  paragraphs.map((p, i) => {
    const start = text.indexOf(p);
    return { question: `How many ${SUBJECTS[i]} keepers are listed?`, references: [{ start, end: start + p.length, content: p }] };
  }),
);

async function openWithGoldenSet(page: Page): Promise<void> {
  await openApp(page);
  await pasteDocument(page, text);
  await page.getByRole('button', { name: 'Evaluation lab' }).click();
  await page.getByRole('tab', { name: 'Golden set' }).click();
  await page.locator('.lab-golden input[type=file]').setInputFiles({ name: 'golden.json', mimeType: 'application/json', buffer: Buffer.from(goldenJson) });
  await expect(page.getByTestId('golden-questions').locator('li')).toHaveCount(SUBJECTS.length);
  await typeNumber(page.getByRole('spinbutton', { name: 'k', exact: true }), 1);
}

test('compare: a verdict with its interval; the same configuration twice is no significant difference; the report opens with the means and the verdict and no script', async ({ page }) => {
  await openWithGoldenSet(page);
  const c = controls(page);
  // A: chunks of 20 characters (an answer is cut into several; k = 1 retrieves one piece).
  await typeNumber(c.sizeBox, 20);
  await typeNumber(c.overlapBox, 0);
  await expectEngineChunks(page);
  await page.getByRole('tab', { name: 'Compare' }).click();
  await page.getByRole('button', { name: 'Pin current as A' }).click();
  // B: chunks of 300 characters (whole paragraphs).
  await typeNumber(c.sizeBox, 300);
  await expectEngineChunks(page);
  const verdict = page.getByTestId('compare-verdict');
  await expect(verdict).toContainText(/^B is better in Recall: B − A = \+\d+\.\d pp \(95% CI \+\d+\.\d pp to \+\d+\.\d pp\), p [=<] /);
  await expect(page.getByTestId('compare-table')).toContainText('95% CI');
  await expect(page.getByTestId('compare-ci-chart')).toBeVisible();
  await expect(page.getByTestId('compare-winners')).toContainText('Per question (Recall): B higher on');
  await expect(page.getByTestId('compare-winners')).toContainText('not a verdict');
  // The chart's text is at least 12 px.
  const smallest = await page.getByTestId('compare-ci-chart').locator('text').evaluateAll((nodes) => Math.min(...nodes.map((n) => parseFloat(getComputedStyle(n).fontSize))));
  expect(smallest).toBeGreaterThanOrEqual(12);

  // The report: one HTML file, opened in the browser from disk.
  const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('group', { name: 'Export report' }).getByRole('button', { name: 'HTML' }).click()]);
  expect(download.suggestedFilename()).toBe('chunkscope-comparison-report.html');
  const dir = mkdtempSync(join(tmpdir(), 'chunkscope-lab-verdict-'));
  const file = join(dir, 'report.html');
  await download.saveAs(file);
  const report = await page.context().newPage();
  await report.goto(pathToFileURL(file).href);
  await expect(report.locator('h1')).toHaveText('Chunkscope comparison');
  await expect(report.locator('p.verdict')).toContainText('B is better in Recall');
  await expect(report.locator('h2', { hasText: 'Means' })).toBeVisible();
  await expect(report.getByRole('columnheader', { name: 'Pooled mean' }).first()).toBeVisible();
  await expect(report.locator('table').first()).toContainText('Option');
  await expect(report.locator('h2', { hasText: 'Significance' })).toBeVisible();
  await expect(report.locator('svg').first()).toBeVisible();
  expect(await report.locator('script').count()).toBe(0);
  await report.close();
  // Markdown too.
  const [md] = await Promise.all([page.waitForEvent('download'), page.getByRole('group', { name: 'Export report' }).getByRole('button', { name: 'Markdown' }).click()]);
  expect(md.suggestedFilename()).toBe('chunkscope-comparison-report.md');

  // A against itself: re-pin the current configuration.
  await page.getByRole('button', { name: 'Re-pin current' }).click();
  await expect(verdict).toContainText(/^No significant difference in Recall \(p = 1\.0000 at α = 0\.05; mean difference B − A \+?0\.0 pp/);
});

test('a hostile document name and question stay text in the exported run report', async ({ page }) => {
  await openApp(page);
  const hostile = '<img src=x onerror=alert(1)>';
  await pasteDocument(page, `${hostile} Falcon keepers meet on Monday.\n\nThe harbour opens at nine.`);
  await page.getByRole('button', { name: 'Evaluation lab' }).click();
  await page.getByRole('tab', { name: 'Golden set' }).click();
  await page.getByRole('textbox', { name: 'New question' }).fill(`When do falcon keepers meet? ${hostile}`);
  await page.getByRole('textbox', { name: 'New question' }).press('Enter');
  const dir = mkdtempSync(join(tmpdir(), 'chunkscope-lab-verdict-'));
  const golden = join(dir, `${hostile}.json`.replace(/[<>/]/g, '_'));
  const doc = `${hostile} Falcon keepers meet on Monday.\n\nThe harbour opens at nine.`;
  writeFileSync(golden, JSON.stringify([{ question: `Falcon? ${hostile}`, references: [{ start: 0, end: doc.indexOf('\n'), content: doc.slice(0, doc.indexOf('\n')) }] }]));
  await page.locator('.lab-golden input[type=file]').setInputFiles(golden);
  // Small chunks cut the answer: the question fails, so the report lists it (with its text).
  await typeNumber(controls(page).sizeBox, 20);
  await typeNumber(controls(page).overlapBox, 0);
  await expectEngineChunks(page);
  await page.getByRole('button', { name: 'Run golden set' }).click();
  await expect(page.getByTestId('lab-means')).toBeVisible();
  const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('group', { name: 'Export report' }).getByRole('button', { name: 'HTML' }).click()]);
  const file = join(dir, 'run.html');
  await download.saveAs(file);
  const report = await page.context().newPage();
  let dialogs = 0;
  report.on('dialog', (d) => {
    dialogs++;
    void d.dismiss();
  });
  await report.goto(pathToFileURL(file).href);
  await expect(report.locator('h1')).toHaveText('Chunkscope evaluation');
  await expect(report.locator('body')).toContainText(`Falcon? ${hostile}`);
  expect(await report.locator('img').count()).toBe(0);
  expect(await report.locator('script').count()).toBe(0);
  expect(dialogs).toBe(0);
  await report.close();
});

test('generate questions with the fake server: estimate, run, accept one, reject one; the accepted one is marked generated', async ({ page, context }) => {
  await context.grantPermissions(['local-network-access']);
  await openApp(page);
  await pasteDocument(page, text);
  await typeNumber(controls(page).sizeBox, 300);
  await expectEngineChunks(page);
  // The LLM panel: the fake server on loopback (no consent prompt: nothing leaves the machine).
  await page.getByRole('button', { name: 'LLM features' }).click();
  await page.getByRole('textbox', { name: 'Base URL' }).fill(server.baseUrl);
  await page.getByRole('textbox', { name: 'Model', exact: true }).fill('fake');
  await page.getByRole('button', { name: 'Evaluation lab' }).click();
  await page.getByRole('tab', { name: 'Golden set' }).click();
  await page.getByRole('button', { name: 'Generate questions…' }).click();
  await expect(page.getByRole('note').filter({ hasText: 'Generated questions are easier than real ones' })).toBeVisible();
  await typeNumber(page.getByRole('spinbutton', { name: 'Questions' }), 3);
  await expect(page.getByTestId('generate-estimate')).toContainText('at most 3 requests');
  const before = server.requests.length;
  await page.getByRole('button', { name: 'Generate', exact: true }).click();
  await expect(page.getByTestId('generate-summary')).toContainText('3 candidates from 3 sampled chunks');
  expect(server.requests.length - before).toBe(3);
  const candidates = page.getByTestId('generate-candidates').locator('li');
  await expect(candidates).toHaveCount(3);
  await expect(candidates.first().locator('mark')).toBeVisible();
  await expect(candidates.first().locator('.lab-align')).toHaveText('exact');
  // Edit then accept the first; reject the second.
  const first = page.getByRole('textbox', { name: 'Candidate question 1' });
  await first.fill('Which keepers meet at noon?');
  await page.getByRole('button', { name: 'Accept candidate 1' }).click();
  await page.getByRole('button', { name: 'Reject candidate 2' }).click();
  await expect(candidates.nth(0)).toHaveAttribute('data-status', 'accepted');
  await expect(candidates.nth(1)).toHaveAttribute('data-status', 'rejected');
  const golden = page.getByTestId('golden-questions').locator('li');
  await expect(golden).toHaveCount(1);
  await expect(golden.first()).toContainText('Which keepers meet at noon?');
  await expect(golden.first().locator('.lab-generated-badge')).toHaveText('generated');
  // Exported as generated.
  await page.locator('#lab-export-format').selectOption('jsonl');
  const [download] = await Promise.all([page.waitForEvent('download'), page.locator('.lab-golden .lab-io').getByRole('button', { name: 'Export', exact: true }).click()]);
  const { readFileSync } = await import('node:fs');
  expect(JSON.parse(readFileSync((await download.path())!, 'utf8'))).toMatchObject({ question: 'Which keepers meet at noon?', generated: true });
});
