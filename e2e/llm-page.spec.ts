import AxeBuilder from '@axe-core/playwright';
import { expect, type Page } from '@playwright/test';
import { downloadFrom, getDocument, openApp, waitForApp } from './app';
import { guardedTest } from './fixtures';
import { INVENTED_PROPOSITION, startFakeLlmServer, type FakeLlmServer } from '../src/testing/fakeLlmServer';

/**
 * The LLM panel against the project's fake OpenAI-compatible server on loopback (it answers this page's origin with
 * CORS, as a local server configured for it would) and a stubbed Chrome `LanguageModel`. The server counts the
 * requests it gets, so "resumes with no new request for what was done" is a number. No real model runs here.
 */

let server: FakeLlmServer;

/** No uncaught exception, and no request leaves the page's origin but to the fake server (./fixtures.ts). */
const test = guardedTest(() => [new URL(server.baseUrl).origin, 'http://127.0.0.1:9']);

test.describe.configure({ mode: 'serial' });

test.beforeAll(async ({ baseURL }) => {
  server = await startFakeLlmServer(0, { corsOrigin: new URL(baseURL!).origin });
});
test.afterAll(() => server.close());
test.beforeEach(async ({ context }) => {
  // Chromium's Local Network Access: a page asks before it reaches a loopback server (a person clicks Allow).
  await context.grantPermissions(['local-network-access']);
  server.requests.length = 0;
  server.delayMs = 0;
});

function llm(page: Page) {
  return {
    open: page.getByRole('button', { name: 'LLM features' }),
    baseUrl: page.getByRole('textbox', { name: 'Base URL' }),
    model: page.getByRole('textbox', { name: 'Model', exact: true }),
    apiKey: page.getByLabel('API key'),
    remember: page.getByRole('checkbox', { name: 'Remember on this device' }),
    feature: page.getByRole('combobox', { name: 'Feature', exact: true }),
    concurrency: page.getByRole('spinbutton', { name: 'Concurrency' }),
    run: page.getByRole('button', { name: 'Run', exact: true }),
    cancel: page.getByRole('button', { name: 'Cancel', exact: true }),
    estimate: page.getByTestId('llm-estimate'),
    report: page.getByTestId('llm-report'),
    progress: page.getByRole('progressbar', { name: 'LLM run progress' }),
  };
}

/** Opens the page on the handbook sample with the LLM panel open and pointed at the fake server. */
async function openOnHandbook(page: Page): Promise<ReturnType<typeof llm>> {
  await openApp(page);
  await page.getByRole('button', { name: 'Sample: Policy handbook', exact: true }).click();
  await expect.poll(() => getDocument(page)).toContain('handbook');
  const l = llm(page);
  await l.open.click();
  await l.baseUrl.fill(server.baseUrl);
  await l.model.fill('fake');
  return l;
}

async function estimated(page: Page): Promise<{ requests: number; cached: number }> {
  const text = (await llm(page).estimate.textContent()) ?? '';
  const m = /Estimate: ([\d,]+) requests \(([\d,]+) cached\)/.exec(text);
  if (!m) throw new Error(`no estimate in "${text}"`);
  return { requests: Number(m[1]!.replace(/,/g, '')), cached: Number(m[2]!.replace(/,/g, '')) };
}

test('contextual: the estimate sends nothing; Run draws the context as injected text; Cancel, reload, Run resumes from the cache', async ({ page }) => {
  const l = await openOnHandbook(page);
  await expect(l.estimate).toContainText('(0 cached)');
  const { requests: total } = await estimated(page);
  expect(total).toBeGreaterThan(4);
  expect(server.requests.length, 'nothing is sent before Run').toBe(0);

  // Slow answers, one at a time: Cancel lands midway.
  server.delayMs = 1_500;
  await l.concurrency.fill('1');
  await expect(l.concurrency).toHaveValue('1');
  await l.run.click();
  await expect(l.cancel).toBeVisible();
  await expect.poll(() => page.evaluate(() => Number(document.querySelector('progress')?.value ?? 0)), { timeout: 20_000 }).toBeGreaterThanOrEqual(2);
  await l.cancel.click();
  await expect(page.getByText('Cancelled: what was answered is cached')).toBeVisible();
  const sentBeforeCancel = server.requests.length;
  expect(sentBeforeCancel).toBeLessThan(total);

  // Reload: settings come back from the page's storage, answers from IndexedDB.
  await page.reload();
  await waitForApp(page);
  await l.open.click();
  await expect(l.baseUrl).toHaveValue(server.baseUrl);
  await expect.poll(async () => (await estimated(page)).cached).toBeGreaterThanOrEqual(2);
  const { cached } = await estimated(page);
  expect(server.requests.length, 'reloading sent nothing').toBe(sentBeforeCancel);

  server.delayMs = 0;
  server.requests.length = 0;
  await l.run.click();
  await expect(l.report).toContainText(`${cached} from the cache`);
  expect(server.requests.length, 'Run again sends only what was not answered').toBe(total - cached);
  const injected = page.locator('.llm-injected');
  await expect(injected).toHaveCount(total);
  await expect(injected.first()).toHaveText(/^Context: this chunk begins with /);
  await expectContextInEditor(page);

  // A configuration already run redraws from the cache at once, sending nothing.
  const chunkSize = page.getByRole('spinbutton', { name: 'Chunk size value', exact: true });
  const size = await chunkSize.inputValue();
  await chunkSize.fill(String(Number(size) + 200));
  await chunkSize.press('Enter');
  await expect(l.report).toContainText('made with other settings');
  await l.run.click(); // the other size's own run
  await expect(l.report).not.toContainText('made with other settings');
  await expect(l.report).not.toContainText(`${total} requests`);
  await chunkSize.fill(size);
  await chunkSize.press('Enter');
  server.requests.length = 0;
  await expect(l.report).not.toContainText('made with other settings');
  await expect(l.report).toContainText(`${total} requests: ${total} answered (${total} from the cache, 0 sent)`);
  expect(server.requests.length, 'going back to a configuration already run sends nothing').toBe(0);
});

/**
 * The contexts are drawn in the editor as injected text at their chunks' starts ("Show in the editor", on by default),
 * never in the editor's text: select-all and copy there gives the source; unticking the toggle removes them.
 */
async function expectContextInEditor(page: Page): Promise<void> {
  const editor = page.getByTestId('editor');
  const contexts = editor.locator('.monaco-editor .cs-llm-context');
  await expect(contexts.first()).toBeVisible();
  await expect(contexts.first()).toHaveText(/^⤷\sContext:\sthis\schunk\sbegins\swith\s/); // Monaco draws spaces as no-break spaces
  const source = await getDocument(page);
  expect(source).not.toContain('Context: this chunk begins with');
  await page.context().grantPermissions(['clipboard-read', 'clipboard-write']);
  // Select-all must go to Monaco, not the page: focus its input (a click on the lines right after a reload sometimes
  // landed before the editor took over the read-only view) and wait until it has the focus.
  await editor.locator('.monaco-editor textarea').first().focus();
  await expect(editor.locator('.monaco-editor.focused')).toHaveCount(1);
  await page.keyboard.press('ControlOrMeta+A');
  await page.keyboard.press('ControlOrMeta+C');
  await expect.poll(() => page.evaluate(() => navigator.clipboard.readText()), { message: 'copying the editor’s text gives the source' }).toBe(source);
  const toggle = page.getByRole('checkbox', { name: /Show in the editor/ });
  await toggle.uncheck();
  await expect(contexts).toHaveCount(0);
  await toggle.check();
  await expect(contexts.first()).toBeVisible();
  expect(await getDocument(page)).toBe(source);
}

/** The editor's line under the middle of `mark` (a decoration Monaco draws in its overlay layer, beside the text). */
async function lineUnder(page: Page, mark: string): Promise<string> {
  const box = (await page.getByTestId('editor').locator(mark).first().boundingBox())!;
  return page.evaluate((y) => {
    for (const line of document.querySelectorAll<HTMLElement>('[data-testid="editor"] .view-line')) {
      const r = line.getBoundingClientRect();
      if (r.top <= y && y < r.bottom) return line.textContent ?? '';
    }
    return '';
  }, box.y + box.height / 2);
}

test('propositions: an invented one is flagged unsupported, hovering one marks its support, a 500 is shown on its passage', async ({ page }) => {
  const l = await openOnHandbook(page);
  await l.feature.selectOption('propositions');
  await l.concurrency.fill('1');
  await expect(l.estimate).toContainText('(0 cached)');
  server.failNext('invent', 1); // the first passage gets an extra statement the passage never made
  server.failNext('500', 4); // the second passage: its request and its three retries
  await l.run.click();
  await expect(l.report).toContainText('1 failed', { timeout: 30_000 });
  const invented = page.locator('.llm-proposition.is-unsupported');
  await expect(invented).toHaveCount(1);
  await expect(invented).toContainText(INVENTED_PROPOSITION);
  await expect(invented).toContainText('unsupported: not in the source');
  await expect(page.getByRole('list', { name: 'Failures by kind' })).toContainText('server error × 1');
  await expect(page.getByRole('list', { name: 'Failures by kind' })).toContainText('unsupported proposition × 1');
  await expect(page.locator('.llm-passage .llm-failure')).toContainText('server error');

  const supported = page.locator('.llm-proposition.is-exact').nth(1);
  await supported.focus(); // keyboard: the same as hovering
  const statement = ((await supported.textContent()) ?? '').replace(/^exact\s*/, '').trim();
  await expect(page.locator('mark.llm-support')).toHaveCount(1);
  expect(((await page.locator('mark.llm-support').textContent()) ?? '').replace(/\s+/g, ' ').trim()).toBe(statement.replace(/\s+/g, ' '));
  await invented.hover();
  await expect(page.locator('mark.llm-support')).toHaveCount(0);
  await supported.hover();
  await expect(page.locator('mark.llm-support')).toHaveCount(1);

  // The editor marks the same support in the source; an unsupported one outlines its passage, flagged there.
  const support = page.getByTestId('editor').locator('.cs-llm-support');
  await expect(support.first()).toBeVisible();
  expect((await lineUnder(page, '.cs-llm-support')).replace(/\u00a0/g, ' ')).toContain(statement.slice(0, 12));
  await invented.hover();
  await expect(support).toHaveCount(0);
  await expect(page.getByTestId('editor').locator('.cs-llm-no-support').first()).toBeVisible();
  await expect(page.getByTestId('editor').locator('.cs-llm-unsupported')).toHaveText(/^⚠\s1\sunsupported\sproposition\s$/);

  // The open panel with its results: no serious or critical accessibility violation (as e2e/a11y.spec.ts asks).
  const axe = await new AxeBuilder({ page }).include('section.llm').analyze();
  expect(axe.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => `${v.id}: ${v.nodes.slice(0, 3).map((n) => n.target.join(' ')).join(' | ')}`)).toEqual([]);
});

test('boundaries drawn as chunks; a summary rate-limited past its retries is shown with its span, then Run again draws it', async ({ page }) => {
  const l = await openOnHandbook(page);
  await l.feature.selectOption('boundaries');
  await l.run.click();
  await expect(l.report).toContainText('boundaries · fake');
  const drawn = page.getByRole('list', { name: 'Chunks drawn by the model' }).getByRole('listitem');
  expect(await drawn.count()).toBeGreaterThan(1);
  await expect(drawn.first()).toContainText('# Northwind Labs Employee Handbook');
  // Shown in the editor, the model's chunks are the editor's chunks; unticked, the base strategy's come back.
  const labels = () =>
    page.evaluate(() => [...document.querySelectorAll('[data-testid="editor"] .cs-chunk-label')].map((l) => `${l.textContent}@${Math.round(l.getBoundingClientRect().top)}`));
  const drawnLabels = await labels();
  expect(drawnLabels.length).toBeGreaterThan(0);
  expect(drawnLabels.length).toBeLessThanOrEqual(await drawn.count());
  await page.getByRole('checkbox', { name: /Show in the editor/ }).uncheck();
  await expect.poll(labels).not.toEqual(drawnLabels);
  await page.getByRole('checkbox', { name: /Show in the editor/ }).check();
  await expect.poll(labels).toEqual(drawnLabels);

  await l.feature.selectOption('summaries');
  await expect(l.estimate).toContainText('(0 cached)');
  server.retryAfterSeconds = 0;
  server.failNext('429', 4); // the request and its three retries
  await l.run.click();
  await expect(l.report).toContainText('1 failed', { timeout: 20_000 });
  await expect(page.getByRole('list', { name: 'Failures by kind' })).toContainText('rate limited (429) × 1');
  await expect(page.locator('.llm-failure')).toContainText(/characters 0–[\d,]+: rate limited \(429\)/);
  await l.run.click(); // the failed request was not cached: it is sent again, and answered
  await expect(page.getByRole('list', { name: 'Summaries' })).toContainText('Summary: # Northwind Labs Employee Handbook');
  await expect(page.getByRole('list', { name: 'Summaries' })).toContainText('Document · characters 0–');
});

test('the API key stays in memory: never in the link, an export, the code, IndexedDB, or localStorage unless remembered', async ({ page, context }) => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  const key = 'test-key-NEVER-STORED-4711';
  const l = await openOnHandbook(page);
  await l.apiKey.fill(key);
  await l.run.click();
  await expect(l.report).toBeVisible();
  expect(server.requests.at(-1)?.authorization, 'the key is sent to the endpoint it is for').toBe(`Bearer ${key}`);
  await expect.poll(() => new URL(page.url()).searchParams.get('llm')).toContain('fake');

  const everywhere = async () => {
    const exported = await downloadFrom(page, 'Export run (JSON)');
    await page.getByRole('button', { name: 'Copy LLM call as code' }).click();
    const code = await page.evaluate(() => navigator.clipboard.readText());
    const stored = await page.evaluate(async () => {
      const local = Object.keys(localStorage).map((k) => `${k}=${localStorage.getItem(k)}`);
      const idb: string[] = [];
      for (const info of await indexedDB.databases()) {
        const db = await new Promise<IDBDatabase>((resolve, reject) => {
          const r = indexedDB.open(info.name!);
          r.onsuccess = () => resolve(r.result);
          r.onerror = () => reject(r.error);
        });
        for (const name of db.objectStoreNames) {
          const all = await new Promise<unknown[]>((resolve) => {
            const r = db.transaction(name).objectStore(name).getAll();
            r.onsuccess = () => resolve(r.result);
          });
          idb.push(JSON.stringify(all));
        }
        db.close();
      }
      return { local: local.join('\n'), idb: idb.join('\n') };
    });
    return { url: decodeURIComponent(page.url()), exported: exported.body, code, ...stored };
  };
  const first = await everywhere();
  expect(first.exported).toContain('"feature": "contextual"');
  expect(first.code).toContain('process.env.OPENAI_API_KEY');
  expect(first.idb.length, 'the answers are in IndexedDB').toBeGreaterThan(100);
  for (const [where, text] of Object.entries(first)) expect(text, `the key in ${where}`).not.toContain(key);

  await l.remember.check();
  expect((await everywhere()).local).toContain(key);
  await l.remember.uncheck();
  const after = await everywhere();
  for (const [where, text] of Object.entries(after)) expect(text, `the key in ${where} after unticking`).not.toContain(key);
});

test('an endpoint that is not on loopback is named, and nothing is sent before the person confirms', async ({ page, guards }) => {
  const l = await openOnHandbook(page);
  await l.baseUrl.fill('https://llm.example.invalid/v1');
  await expect(page.getByRole('note').filter({ hasText: 'sends the document’s text to llm.example.invalid' })).toBeVisible();
  await l.run.click();
  const dialog = page.getByRole('alertdialog', { name: 'Send the document to another host?' });
  await expect(dialog).toContainText('will be sent to llm.example.invalid');
  await dialog.getByRole('button', { name: 'Don’t send' }).click();
  await expect(dialog).toBeHidden();
  expect(guards.requests.filter((url) => url.includes('example.invalid'))).toEqual([]);
});

test('an endpoint that does not answer: each chunk says why, and the page names the CORS settings of the common servers', async ({ page }) => {
  const l = await openOnHandbook(page);
  await l.baseUrl.fill('http://127.0.0.1:9/v1'); // discard port: nothing listens
  await l.run.click();
  await expect(l.report).toContainText('failed');
  await expect(page.locator('.llm-item .llm-failure').first()).toContainText('cannot reach');
  const hint = page.getByRole('note').filter({ hasText: 'must allow this page’s origin' });
  await expect(hint).toContainText('OLLAMA_ORIGINS');
  await expect(hint).toContainText('lms server start --cors');
  await expect(hint).toContainText('--cors-origins');
  await expect(page.getByTestId('editor')).toBeVisible(); // the page is still there, with its document
  expect(await getDocument(page)).toContain('handbook');
});

test("Chrome's built-in model (a stubbed LanguageModel): offered, available, and its answers drawn", async ({ page }) => {
  await page.addInitScript(() => {
    const calls: string[] = [];
    (window as unknown as { __lmCalls: string[] }).__lmCalls = calls;
    (window as unknown as { LanguageModel: unknown }).LanguageModel = {
      availability: async () => 'available',
      create: async () => ({
        prompt: async (text: string) => {
          calls.push(text);
          const chunk = /<chunk>\n?([\s\S]*?)\n?<\/chunk>/.exec(text)?.[1] ?? '';
          return JSON.stringify({ context: `Built-in context for: ${chunk.trim().split(/\s+/).slice(0, 3).join(' ')}` });
        },
        destroy() {},
      }),
    };
  });
  await openApp(page);
  await page.getByRole('button', { name: 'Sample: Policy handbook', exact: true }).click();
  const l = llm(page);
  await l.open.click();
  await page.getByRole('radio', { name: 'Chrome built-in model' }).check();
  await expect(page.getByText('Built-in model: available')).toBeVisible();
  const { requests } = await estimated(page);
  await l.run.click();
  await expect(l.report).toContainText(`${requests} requests: ${requests} answered`);
  await expect(page.locator('.llm-injected').first()).toHaveText(/^Built-in context for: /);
  expect(await page.evaluate(() => (window as unknown as { __lmCalls: string[] }).__lmCalls.length)).toBe(requests);
  expect(server.requests.length, 'nothing went to an endpoint').toBe(0);
});

test('contextual and propositions drawn at 1440×900 and 1280×720 (screenshots for review)', async ({ page }) => {
  for (const [width, height] of [[1440, 900], [1280, 720]] as const) {
    await page.setViewportSize({ width, height });
    const l = await openOnHandbook(page);
    await l.feature.selectOption('contextual'); // the settings of the previous size are kept
    await l.run.click();
    await expect(page.getByTestId('editor').locator('.cs-llm-context').first()).toBeVisible();
    await page.screenshot({ path: `test-results/llm-page-contextual-${width}x${height}.png` });
    await l.feature.selectOption('propositions');
    server.failNext('invent', 1);
    await l.run.click();
    await expect(l.report).toContainText('propositions');
    await page.locator('.llm-proposition.is-exact').nth(3).hover();
    await expect(page.getByTestId('editor').locator('.cs-llm-support').first()).toBeVisible();
    await page.waitForTimeout(400); // the editor's smooth scroll to the support
    await page.screenshot({ path: `test-results/llm-page-${width}x${height}.png` });
  }
});
