import type { Page } from '@playwright/test';
import { test, expect } from './fixtures';
import { controls, expectPainted, openApp, pasteDocument } from './app';
import { makeDocument } from './documents';
import { buildChunks, chunk, getUnit, validateOptions } from '../src/core/index';
import { createEmbedder } from '../src/embed/index';
import { ValueStats } from '../src/core/semantic/breakpoints';
import { prepareSemantic, splitSemantic, type SemanticAnalysis } from '../src/core/semantic/index';
import { npGradient } from '../src/core/semantic/numpy';
import { semanticPrepareOptions, semanticSplitParams } from '../src/core/strategies/semantic/split';
import type { Chunk, ChunkOptions } from '../src/core/types';

// A person chooses the semantic strategy with the built-in offline model, sees the similarity curve, and moves the
// threshold line with the mouse and the keyboard; the boundaries follow. "Right" is what the core splitter predicts
// from the page's own distances and threshold (so the test checks the page's splitting and painting, not the
// model's float rounding). The fixtures check that no request leaves the origin.

// Three topics in words the built-in model knows (no numbers, no single letters), four sentences each, twice.
const TOPICS = [
  'The chef chopped fresh onions and garlic for the soup. She added tomatoes, basil and olive oil to the pan. ' +
    'The bread was baked in a hot oven until golden. Dinner was served with cheese and red wine.',
  'The rocket launched from the station toward the moon. Astronauts measured the orbit of the distant planet. ' +
    'The telescope captured images of a bright galaxy. Scientists studied the radiation from the sun.',
  'The striker scored a late goal in the championship match. Fans cheered as the team won the league title. ' +
    'The coach praised the defenders after the game. The players celebrated with the trophy in the stadium.',
];
const TEXT = [...TOPICS, ...TOPICS.map((t) => t.replace(/The /g, 'Then the '))].join('\n\n') + '\n';

interface PageSemantic {
  distances: number[];
  threshold: number;
  breakpoints: number[];
}

function pageSemantic(page: Page): Promise<PageSemantic | null> {
  return page.evaluate(() => {
    const hook = window.__chunkscope as unknown as { semantic?: () => PageSemantic | null };
    return hook.semantic?.() ?? null;
  });
}

interface Prediction {
  chunks: Chunk[];
  breakpoints: number[];
  gaps: number;
}

/** The chunks core makes from the page's distances at the page's threshold, with the page's options. */
async function predict(page: Page, semantic: PageSemantic): Promise<Prediction> {
  const config = (await page.evaluate(() => window.__chunkscope!.getConfig())) as ChunkOptions;
  const resolved = validateOptions(config);
  const unit = await getUnit(resolved.unit);
  const preparation = prepareSemantic(TEXT, semanticPrepareOptions(resolved));
  const distances = Float64Array.from(semantic.distances, (d) => (Number.isFinite(d) ? d : NaN)); // JSON: NaN → null
  const gradient = npGradient(distances);
  const analysis: SemanticAnalysis = {
    preparation,
    distances,
    gradient,
    distanceStats: new ValueStats(distances),
    gradientStats: new ValueStats(gradient),
  };
  const params = semanticSplitParams(resolved, unit);
  const result = splitSemantic(analysis, resolved.chunks == null ? { ...params, threshold: semantic.threshold } : params);
  return { chunks: buildChunks(TEXT, result.spans, resolved, unit), breakpoints: result.breakpoints, gaps: preparation.sentences.length - 1 };
}

/**
 * Waits until the page shows a threshold other than `previous` and the chunk count core predicts for it (a drag sends
 * several thresholds: the last one wins), then checks the painted boundaries and the curve's breakpoint marks.
 */
async function expectBoundariesFollow(page: Page, previous: number): Promise<PageSemantic> {
  let semantic: PageSemantic | null = null;
  let prediction: Prediction | null = null;
  await expect
    .poll(
      async () => {
        semantic = await pageSemantic(page);
        if (!semantic || semantic.threshold === previous) return 'the threshold has not moved';
        prediction = await predict(page, semantic);
        const shown = await controls(page).chunkCount.textContent();
        return shown === String(prediction.chunks.length) ? 'ok' : `chunk count ${shown}, core predicts ${prediction.chunks.length}`;
      },
      { message: 'the boundaries follow the threshold' },
    )
    .toBe('ok');
  expect(semantic!.breakpoints, 'the page reports the breakpoints core finds').toEqual(prediction!.breakpoints);
  expect(semantic!.distances.length, 'one distance per sentence gap').toBe(prediction!.gaps);
  await expectPainted(page, prediction!.chunks);
  await expect(page.locator('svg[aria-label="Similarity curve"] .cs-breakpoint')).toHaveCount(semantic!.breakpoints.length);
  return semantic!;
}

test('semantic chunking: the curve, a dragged threshold and the keyboard move the boundaries where core puts them', async ({ page, guards }) => {
  await openApp(page);
  await pasteDocument(page, TEXT);
  const c = controls(page);
  await c.strategy.selectOption('semantic');

  // The curve: one point per sentence gap, the model loaded from our own origin, run as a table lookup (no runtime).
  const curve = page.locator('svg[aria-label="Similarity curve"]');
  await expect(curve).toBeVisible({ timeout: 30_000 });
  await expect.poll(async () => (await pageSemantic(page))?.distances.length ?? 0, { timeout: 30_000 }).toBeGreaterThan(0);
  const first = await expectBoundariesFollow(page, NaN);
  await expect(curve.locator('.cs-gap')).toHaveCount(first.distances.length);
  await expect(page.getByTestId('embed-backend')).toHaveText('Table lookup');
  expect(guards.requests.some((url) => url.includes('/models/chunkscope-static-en/'))).toBe(true);

  // Drag the threshold line with the mouse down to the median gap: more of the gaps lie above it now.
  const line = page.getByRole('slider', { name: 'Threshold', exact: true });
  const box = (await line.boundingBox())!;
  // Page coordinates of the points (their cy is in the svg's own coordinates).
  const gapYs = (
    await curve.locator('.cs-gap').evaluateAll((dots) =>
      dots.map((d) => {
        const r = d.getBoundingClientRect();
        return r.top + r.height / 2;
      }),
    )
  ).sort((a, b) => a - b);
  const targetY = gapYs[Math.floor(gapYs.length / 2)]! + 1; // just below the median point: about half the gaps above
  const startY = box.y + box.height / 2;
  await page.mouse.move(box.x + box.width / 2, startY);
  await page.mouse.down();
  for (let step = 1; step <= 8; step++) await page.mouse.move(box.x + box.width / 2, startY + ((targetY - startY) * step) / 8);
  await page.mouse.up();
  const dragged = await expectBoundariesFollow(page, first.threshold);
  expect(dragged.breakpoints.length, 'a lower threshold cuts at more gaps').toBeGreaterThan(first.breakpoints.length);

  // The keyboard: End puts the line at the top (no gap above it: one chunk), Home at zero (every gap above it).
  await line.focus();
  await page.keyboard.press('End');
  const top = await expectBoundariesFollow(page, dragged.threshold);
  expect(top.breakpoints).toEqual([]);
  await expect(line, 'the threshold line keeps the focus: the next key moves it again').toBeFocused();
  await page.keyboard.press('Home');
  const bottom = await expectBoundariesFollow(page, top.threshold);
  expect(bottom.breakpoints.length).toBeGreaterThanOrEqual(dragged.breakpoints.length);
  await page.keyboard.press('ArrowUp');
  await expectBoundariesFollow(page, bottom.threshold);
});

test('late chunking: with the built-in model a query gets the same similarity from naive and late-chunked chunks', async ({ page }) => {
  await openApp(page);
  await pasteDocument(page, TEXT);
  await controls(page).strategy.selectOption('semantic');
  await expect.poll(async () => (await pageSemantic(page))?.distances.length ?? 0, { timeout: 30_000 }).toBeGreaterThan(0);

  await page.getByRole('tab', { name: 'Late chunking' }).click();
  await page.getByRole('searchbox', { name: 'Query' }).fill('astronauts orbit the moon in a rocket');
  await page.getByRole('button', { name: 'Compare' }).click();
  const table = page.getByRole('table', { name: 'Naive vs late chunking' });
  const rows = table.getByRole('row').filter({ hasNot: page.getByRole('columnheader') });
  await expect(rows.first()).toBeVisible({ timeout: 30_000 });
  await expect(rows).toHaveCount(Number(await controls(page).chunkCount.textContent()));

  const cells = await rows.evaluateAll((items) =>
    items.map((row) => Array.from(row.querySelectorAll('[role="cell"]'), (cell) => cell.textContent ?? '')),
  );
  // Static word vectors do not depend on context: the two columns agree for every chunk (the invariant).
  for (const [, naive, late] of cells) expect(late).toBe(naive);
  // The best match (rows are ranked) is a chunk about space.
  expect(cells[0]![3]).toMatch(/rocket|astronauts|telescope|galaxy/i);
});

test('bad input: one sentence, then only unknown words and numbers: a clear note, the same chunks as the CLI', async ({ page }) => {
  const embedder = await createEmbedder({ model: 'builtin' }); // the CLI's embedder, in Node
  try {
    await openApp(page);
    await pasteDocument(page, TEXT);
    const c = controls(page);
    await c.strategy.selectOption('semantic');
    await expect.poll(async () => (await pageSemantic(page))?.distances.length ?? 0, { timeout: 30_000 }).toBeGreaterThan(0);

    for (const [text, note] of [
      ['Only one sentence here about the river.', /one sentence/i],
      // Lines without punctuation (punctuation marks are in the vocabulary): every window is a zero vector.
      ['Zyx qwv 1234\nVbn 5678 xkcd\nQqq 9012 zzz\n', /have no distance/],
    ] as const) {
      await page.evaluate((t) => window.__chunkscope!.setDocument(t), text);
      const options = (await page.evaluate(() => window.__chunkscope!.getConfig())) as ChunkOptions;
      const expected = await chunk(text, options, { embed: (texts) => embedder.embed(texts) });
      await expectPainted(page, expected);
      await expect(page.getByText(note).first()).toBeVisible();
    }
    // Still working: the topical document chunks again.
    await page.evaluate((t) => window.__chunkscope!.setDocument(t), TEXT);
    await expect.poll(async () => (await pageSemantic(page))?.distances.length ?? 0).toBe(prepareSemantic(TEXT).sentences.length - 1);
  } finally {
    await embedder.dispose();
  }
});

test('a long embedding shows progress and can be cancelled; the last good result stays', async ({ page }) => {
  await openApp(page);
  const c = controls(page);
  // 8 MiB: the built-in model's direct path embeds 1 MiB in a few hundred milliseconds, too briefly to press Cancel.
  const big = makeDocument(8 * 1024 * 1024, 11);
  // The sample's count first, so the count read below is the 1 MiB document's (not the sample's, still shown).
  await expect(c.chunkCount).not.toHaveText('0', { timeout: 60_000 });
  const sampleCount = await c.chunkCount.textContent();
  await page.evaluate((t) => window.__chunkscope!.setDocument(t), big);
  await expect(c.chunkCount).not.toHaveText(sampleCount!, { timeout: 60_000 });
  const before = await c.chunkCount.textContent();

  await c.strategy.selectOption('semantic');
  // Past the model load: the sentences are being embedded.
  await expect(page.getByTestId('embed-progress')).toContainText(/Embedding/, { timeout: 30_000 });
  await page.getByRole('button', { name: 'Cancel embedding' }).click();
  await expect(page.getByTestId('embed-progress')).toBeHidden();
  expect(await pageSemantic(page), 'no semantic result was painted').toBeNull();
  await expect(c.chunkCount).toHaveText(before!);
});

test('the built-in model picked as a folder runs on onnxruntime-web (WASM) and gives the direct path\'s distances and chunks', async ({ page }) => {
  await openApp(page);
  await pasteDocument(page, TEXT);
  const c = controls(page);
  await c.strategy.selectOption('semantic');
  await expect(page.getByTestId('embed-backend')).toHaveText('Table lookup', { timeout: 30_000 });
  await expect.poll(async () => (await pageSemantic(page))?.distances.length ?? 0, { timeout: 30_000 }).toBeGreaterThan(0);
  const direct = (await pageSemantic(page))!;
  // The chunks' offsets as the list shows them ("0–198"); their "emb" counts differ: a picked folder is assumed to add
  // two special tokens around each input, the built-in model none.
  const offsets = async () => (await c.chunkList.innerText()).match(/\d[\d,]*–\d[\d,]*/g);
  const directOffsets = await offsets();
  expect(directOffsets?.length).toBeGreaterThan(1);

  // The same files as a picked folder: a transformers.js model, loaded through onnxruntime-web's WASM in the worker
  // (and under the page's CSP, which allows only 'wasm-unsafe-eval').
  await page.getByLabel('Model folder').setInputFiles('public/models/chunkscope-static-en');
  await expect(page.getByTestId('embed-backend')).toContainText('WASM', { timeout: 60_000 });
  await expect
    .poll(async () => JSON.stringify((await pageSemantic(page))?.distances.map((d) => Math.round(d * 1e4)) ?? null), { timeout: 60_000 })
    .toBe(JSON.stringify(direct.distances.map((d) => Math.round(d * 1e4))));
  const onnx = (await pageSemantic(page))!;
  onnx.distances.forEach((d, i) => expect(Math.abs(d - direct.distances[i]!)).toBeLessThan(1e-5));
  expect(onnx.breakpoints).toEqual(direct.breakpoints);
  expect(await offsets()).toEqual(directOffsets);
});
