import type { Page } from '@playwright/test';
import { strToU8, zipSync } from 'fflate';
import { test, expect } from './fixtures';
import { controls, getDocument, openApp, pasteDocument, waitForApp } from './app';
import { encodeShareFragment } from '../src/state/shareLink';
import { injectionReport, XSS_PAYLOADS } from './xss-payloads';

// Every surface that shows text a stranger wrote (the document, headings and breadcrumbs, table captions, file
// names and paths, header templates, URL parameters, imported HTML/DOCX/JSON) gets the whole corpus; afterwards no
// dialog has opened, nothing set window.__xss and no element of a payload is in the page. Payloads are batched so
// each surface costs one page load.

test.describe.configure({ timeout: 120_000 });

/** Dialogs the page opened (alert, confirm, prompt): each is recorded and dismissed. */
function watchDialogs(page: Page): string[] {
  const dialogs: string[] = [];
  page.on('dialog', (dialog) => {
    dialogs.push(`${dialog.type()}: ${dialog.message()}`);
    void dialog.dismiss();
  });
  return dialogs;
}

async function expectNothingInjected(page: Page, dialogs: string[], where: string): Promise<void> {
  // Give a late handler (an image's onerror, a timer) its chance to run.
  await page.waitForTimeout(300);
  expect(await page.evaluate(injectionReport), `${where}: injected or executed`).toEqual([]);
  expect(dialogs, `${where}: dialogs`).toEqual([]);
}

async function openFile(page: Page, name: string, mimeType: string, buffer: Buffer): Promise<void> {
  const [chooser] = await Promise.all([page.waitForEvent('filechooser'), page.getByRole('button', { name: 'Open file…', exact: true }).click()]);
  await chooser.setFiles({ name, mimeType, buffer });
}

/** Hover the editor's lines one after another (middle of each line's text) so Monaco renders its hover for several. */
async function hoverChunks(page: Page, count: number): Promise<number> {
  const lines = controls(page).editor.locator('.view-line');
  const hover = page.locator('.monaco-hover-content');
  let hovers = 0;
  const total = Math.min(await lines.count(), count * 3);
  for (let i = 0; i < total && hovers < count; i++) {
    const box = await lines.nth(i).boundingBox();
    if (!box || box.width < 20) continue;
    await page.mouse.move(box.x + Math.min(box.width / 2, 300), box.y + box.height / 2);
    if (await hover.first().isVisible({ timeout: 1500 }).catch(() => false)) {
      hovers++;
      // The hover shows document text as text: no link, no image, no markup from the document.
      expect(await hover.locator('a, img, iframe, script').count(), 'links or images in the chunk hover').toBe(0);
    }
    await page.mouse.move(0, 0);
  }
  return hovers;
}

/** A file name can hold anything but "/" (and NUL). */
const FILE_NAME_PAYLOADS = XSS_PAYLOADS.filter((p) => !p.includes('/'));

const markdownDocument = XSS_PAYLOADS.map(
  (p, i) => `# ${p}\n\nBody of section ${i}: ${p} and more words so the section has a body.\n\n` + (i % 6 === 0 ? `Table ${i}: ${p}\n\n| ${p} | b |\n| --- | --- |\n| ${p} | 2 |\n\n` : ''),
).join('');

test('the detector itself sees an injected element, a handler attribute and the flag', async ({ page }) => {
  // On a blank page: the app's Trusted Types refuse markup from a string (e2e/trusted-types.spec.ts), so the
  // detector is shown an injection the app itself would not let through.
  await page.setContent('<b data-xss></b><i onclick="x"></i>');
  await page.evaluate(() => {
    (window as unknown as { __xss: number }).__xss = 1;
  });
  expect(await page.evaluate(injectionReport)).toEqual(['window.__xss was set', 'injected <b data-xss>', '<i> has a handler attribute onclick']);
});

test('markdown: the document, headings, breadcrumbs, table captions, the file name and a header template', async ({ page }) => {
  const dialogs = watchDialogs(page);
  const template = `${XSS_PAYLOADS.slice(6, 12).join(' ')} {path}`;
  await openApp(page, `/?strategy=markdown&headers=${encodeURIComponent(template)}&heading-depth=2`);
  const name = `${FILE_NAME_PAYLOADS[8]}.md`;
  await openFile(page, name, 'text/markdown', Buffer.from(markdownDocument, 'utf8'));
  await expect.poll(() => getDocument(page)).toBe(markdownDocument);
  // The file name is shown as text.
  await expect(page.locator('.doc-name')).toHaveText(name);
  await expect(controls(page).chunkCount).toBeVisible();
  await expect(page.locator('.cs-breadcrumb, [class*="breadcrumb"]').first()).toBeAttached();
  await hoverChunks(page, 8);
  // The chunk list with the embedded content (breadcrumbs and the injected header) shown.
  const showContent = page.getByRole('checkbox', { name: /Show content/ }).or(page.getByRole('button', { name: /Show content/ }));
  if (await showContent.first().isVisible().catch(() => false)) await showContent.first().click();
  await expect(controls(page).chunkList).toContainText('Body of section');
  await expectNothingInjected(page, dialogs, 'markdown document');
});

test('code: a file path and source text full of payloads', async ({ page }) => {
  const dialogs = watchDialogs(page);
  const path = `src/${FILE_NAME_PAYLOADS[3]}.py`;
  await openApp(page, `/?strategy=code&language=python&path=${encodeURIComponent(path)}&headers=${encodeURIComponent('{file} ' + XSS_PAYLOADS[0])}`);
  const source = XSS_PAYLOADS.map((p, i) => `def f${i}():\n    # ${p}\n    return ${JSON.stringify(p)}\n\n`).join('');
  await pasteDocument(page, source);
  await expect(controls(page).chunkCount).toBeVisible();
  await expect(page.getByRole('textbox', { name: 'File path', exact: true })).toHaveValue(path);
  await hoverChunks(page, 4);
  await expectNothingInjected(page, dialogs, 'code');
});

test('the chunk hover shows a heading with a bare URL, a markdown link and HTML as plain text', async ({ page }) => {
  const dialogs = watchDialogs(page);
  await openApp(page, '/?strategy=markdown');
  const heading = 'Rates https://evil.example/x [click](javascript:window.__xss=1) <img src=x onerror=window.__xss=1 data-xss>';
  await pasteDocument(page, `# ${heading}\n\nThe body of this section is one line of plain words that the hover belongs to.\n`);
  await expect(controls(page).chunkCount).toHaveText('1');
  const body = controls(page).editor.locator('.view-line', { hasText: 'The body of this section' });
  const box = (await body.boundingBox())!;
  const hover = page.locator('.monaco-hover-content');
  await expect(async () => {
    await page.mouse.move(box.x + 5, box.y + 2);
    await page.mouse.move(box.x + 120, box.y + box.height / 2);
    await expect(hover.first()).toBeVisible({ timeout: 2000 });
  }).toPass({ timeout: 20_000 });
  await expect(hover.first()).toContainText('https://evil.example/x');
  // The heading's title is its text (the link's label), and its HTML shows as the characters it is.
  await expect(hover.first()).toContainText('<img src=x onerror=window.__xss=1 data-xss>');
  expect(await hover.locator('a, img').count(), 'links or images in the hover').toBe(0);
  await expectNothingInjected(page, dialogs, 'hover');
});

/** A minimal DOCX (the three parts Word needs) whose paragraphs and a hyperlink carry the payloads. */
function payloadDocx(): Buffer {
  const escape = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
  const paragraphs = XSS_PAYLOADS.map((p) => `<w:p><w:r><w:t xml:space="preserve">${escape(p)}</w:t></w:r></w:p>`).join('');
  const link = '<w:p><w:hyperlink r:id="rIdX"><w:r><w:t>a link</w:t></w:r></w:hyperlink></w:p>';
  const files = {
    '[Content_Types].xml':
      '<?xml version="1.0" encoding="UTF-8"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/></Types>',
    '_rels/.rels':
      '<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="word/document.xml"/></Relationships>',
    'word/_rels/document.xml.rels':
      '<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rIdX" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/hyperlink" Target="javascript:window.__xss=1" TargetMode="External"/></Relationships>',
    'word/document.xml': `<?xml version="1.0" encoding="UTF-8"?><w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"><w:body>${paragraphs}${link}</w:body></w:document>`,
  };
  return Buffer.from(zipSync(Object.fromEntries(Object.entries(files).map(([k, v]) => [k, strToU8(v)]))));
}

test('imports: an HTML file, a DOCX and a re-imported JSON export, each full of payloads', async ({ page }) => {
  const dialogs = watchDialogs(page);
  await openApp(page);

  const html = `<!doctype html><html><head><title>${XSS_PAYLOADS[5]}</title></head><body>${XSS_PAYLOADS.map((p, i) => `<h2>Part ${i} ${p}</h2><p>${p}</p>`).join('')}<table><caption>${XSS_PAYLOADS[6]}</caption><tr><th>${XSS_PAYLOADS[7]}</th></tr><tr><td>x</td></tr></table></body></html>`;
  await openFile(page, `${FILE_NAME_PAYLOADS[1]}.html`, 'text/html', Buffer.from(html, 'utf8'));
  await expect.poll(() => getDocument(page)).toBe(html);
  await expect(controls(page).strategy).toHaveValue('html');
  await expect(controls(page).chunkCount).toBeVisible();
  await hoverChunks(page, 4);
  await expectNothingInjected(page, dialogs, 'HTML import');

  await openFile(page, `${FILE_NAME_PAYLOADS[2]}.docx`, 'application/vnd.openxmlformats-officedocument.wordprocessingml.document', payloadDocx());
  await expect.poll(() => getDocument(page)).toContain('onerror');
  await expect(controls(page).chunkCount).toBeVisible();
  await expectNothingInjected(page, dialogs, 'DOCX import');

  // A chunk export as a stranger might craft it: payload texts, payload metadata.
  let offset = 0;
  const chunks = XSS_PAYLOADS.map((p, index) => {
    const start = offset;
    offset += p.length + 1;
    return { index, start, end: start + p.length, text: p, content: p, size: p.length, id: `x${index}`, metadata: { headingPath: [p], strategy: p } };
  });
  await openFile(page, `${FILE_NAME_PAYLOADS[4]}.json`, 'application/json', Buffer.from(JSON.stringify(chunks), 'utf8'));
  await expect.poll(() => getDocument(page)).toContain(XSS_PAYLOADS[0]!);
  await expect(controls(page).chunkCount).toBeVisible();
  await expectNothingInjected(page, dialogs, 'JSON re-import');
});

test('URL parameters: every setting and a shared document in the fragment', async ({ page }) => {
  const dialogs = watchDialogs(page);
  const keys = ['strategy', 'unit', 'language', 'lang', 'codelang', 'separators', 'keep-separator', 'headers', 'path', 'embedder', 'locale', 'levels', 'retrieval', 'breakpoint', 'compat', 'size', 'pin', 'retriever'];
  const query = new URLSearchParams();
  keys.forEach((key, i) => query.append(key, XSS_PAYLOADS[i % XSS_PAYLOADS.length]!));
  for (const p of XSS_PAYLOADS.slice(20)) query.append('separators', p);
  const fragment = encodeShareFragment({ text: XSS_PAYLOADS.join('\n\n'), name: `${FILE_NAME_PAYLOADS[6]}.md` });
  await page.goto(`/?${query.toString()}#${fragment}`);
  await waitForApp(page);
  await expect.poll(() => getDocument(page)).toBe(XSS_PAYLOADS.join('\n\n'));
  await expect(controls(page).chunkCount).toBeVisible();
  await expectNothingInjected(page, dialogs, 'URL parameters and #doc=');

  // The same payloads as valid settings where the option takes free text: the header template and the path.
  await page.goto(`/?strategy=markdown&headers=${encodeURIComponent(XSS_PAYLOADS.join(' '))}&path=${encodeURIComponent(XSS_PAYLOADS[10]!)}`);
  await waitForApp(page);
  await expect(controls(page).chunkCount).toBeVisible();
  await expectNothingInjected(page, dialogs, 'header template from a link');
});
