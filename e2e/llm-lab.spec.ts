import { test, expect } from './fixtures';
import { expectEngineChunks, openApp, pageOptions, pasteDocument, controls, typeNumber } from './app';
import { evaluateChunks, evaluateDerived, validateEvalOptions } from '../src/core/eval/index';
import { runLlmFeature } from '../src/core/llm/run';
import { chunk, validateOptions } from '../src/core/index';
import { startFakeLlmServer } from '../src/testing/fakeLlmServer';
import type { LlmPageResult } from '../src/state/llmSlice';

// The lab's "With LLM" tab as a person uses it: without an LLM result it says how to get one; with one (the LLM
// panel's, set here through the page's test hook from a real propositions run against the fake OpenAI-compatible
// server) and a golden set imported from a file, it scores the drawn chunks against the propositions under BM25,
// dense and hybrid, and shows the run's requests, tokens and money beside recall. The BM25 figures are checked
// against core's evaluateChunks / evaluateDerived run in Node on the same text, options and chunks.

const text = [
  'The lighthouse keeper lit the lamp at dusk. Ships avoided the northern reef because of it. The keeper logged every ship in a ledger.',
  'Winter storms closed the harbour for weeks. Fishermen mended nets in the boathouse. The ferry stopped running in January.',
  'Spring brought the first supply boat. It carried flour, oil for the lamp and letters. The keeper answered the letters by candlelight.',
].join('\n\n');
const ref = (content: string) => ({ start: text.indexOf(content), end: text.indexOf(content) + content.length, content });
const golden = [
  { question: 'Why did ships avoid the northern reef?', references: [ref('Ships avoided the northern reef because of it.')] },
  { question: 'When did the ferry stop running?', references: [ref('The ferry stopped running in January.')] },
  { question: 'Where did fishermen mend nets?', references: [ref('Fishermen mended nets in the boathouse.')] },
];
const pct = (x: number) => `${(x * 100).toFixed(1)}%`;

type Hook = { setLlmResult(result: Omit<LlmPageResult, 'documentSerial'> | null): void };

test('plain chunks against propositions under BM25, dense and hybrid, with the LLM cost beside recall', async ({ page }) => {
  await openApp(page);
  await pasteDocument(page, text);
  const c = controls(page);
  await typeNumber(c.sizeBox, 140);
  await typeNumber(c.overlapBox, 0);
  await expectEngineChunks(page);

  await page.getByRole('button', { name: 'Evaluation lab' }).click();
  // One chunk per question (k = 1): what a question gets first.
  await typeNumber(page.getByRole('spinbutton', { name: 'k', exact: true }), 1);
  await page.getByRole('tab', { name: 'With LLM' }).click();
  await expect(page.getByTestId('llm-compare-none')).toContainText('run a feature');

  // The golden set, imported from a file.
  await page.getByRole('tab', { name: 'Golden set' }).click();
  await page.locator('.lab-io input[type=file]').setInputFiles({ name: 'golden.json', mimeType: 'application/json', buffer: Buffer.from(JSON.stringify(golden), 'utf8') });
  await expect(page.getByText('3 questions · stored with this document')).toBeVisible();

  // A propositions run against the fake server (what the LLM panel stores when a run completes).
  const options = await pageOptions(page);
  const server = await startFakeLlmServer();
  let run;
  try {
    run = await runLlmFeature(text, options, { feature: 'propositions', baseUrl: server.baseUrl, model: 'fake-1' });
  } finally {
    await server.close();
  }
  const { chunks, report } = run;
  await page.evaluate((result) => (window.__chunkscope as unknown as Hook).setLlmResult(result), { configKey: 'e2e', feature: 'propositions', chunks, report, cost: 0.0123 });

  await page.getByRole('tab', { name: 'With LLM' }).click();
  const cost = page.getByTestId('llm-compare-cost');
  await expect(cost).toContainText(`LLM run: ${report.requests} requests (0 cached, ${report.sent} sent)`);
  await expect(cost).toContainText(`${report.usage.input} input + ${report.usage.output} output tokens · cost 0.012`);
  await page.getByRole('button', { name: 'Compare on the golden set' }).click();
  const table = page.getByTestId('llm-compare-table');
  await expect(table.locator('tbody tr')).toHaveCount(3);
  await expect(page.getByRole('button', { name: 'Score again' })).toBeEnabled({ timeout: 60_000 });

  // BM25: the same figures as core in Node.
  const resolved = validateOptions(options);
  const settings = validateEvalOptions({ retriever: 'bm25', chunksInContext: 1 });
  const plainChunks = await chunk(text, options);
  const plain = await evaluateChunks([{ id: 'document', text, chunks: plainChunks }], golden, resolved, settings);
  const derived = await evaluateDerived([{ id: 'document', text, chunks }], golden, resolved, settings);
  const bm25 = table.locator('tr[data-retriever="bm25"] td');
  await expect(bm25.nth(0)).toHaveText(pct(plain.means.recall));
  await expect(bm25.nth(1)).toHaveText(pct(derived.means.recall));
  await expect(bm25.nth(3)).toHaveText(pct(plain.means.iou));
  await expect(bm25.nth(4)).toHaveText(pct(derived.means.iou));
  await expect(bm25.nth(5)).toHaveText(`${plainChunks.length} / ${chunks.length}`);
  // Dense and hybrid: figures with the built-in embedder (or the one line saying why not).
  for (const retriever of ['dense', 'hybrid']) await expect(table.locator(`tr[data-retriever="${retriever}"] td`).first()).toHaveText(/%|embed|model/);

  for (const [width, height] of [[1440, 900], [1280, 720]] as const) {
    await page.setViewportSize({ width, height });
    await page.locator('.lab').screenshot({ path: `test-results/llm-lab-${width}x${height}.png` });
    await page.screenshot({ path: `test-results/llm-lab-page-${width}x${height}.png` });
  }

  // A stale result (the document edited since the run) is refused in one line.
  await page.evaluate((t) => window.__chunkscope!.editDocument(t), 'X' + text);
  await expect(page.getByTestId('llm-compare-stale')).toContainText('another version of the document');
  // Another document drops the result: the tab says how to get one.
  await page.evaluate((t) => window.__chunkscope!.setDocument(t), text);
  await expect(page.getByTestId('llm-compare-none')).toBeVisible();
});
