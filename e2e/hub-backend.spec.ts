import { test, expect } from './fixtures';
import { controls, openApp, pasteDocument } from './app';

// A person picks a model folder (a transformers.js model: here the built-in model's files): it runs on the ONNX path.
// This Chromium has no GPU (--disable-gpu), so WebGPU gives no adapter: the backend badge says WASM, and its title
// says why it is not WebGPU and whether the page is cross-origin isolated (docs/hub-models.md).

const TEXT =
  'The chef chopped fresh onions and garlic for the soup. She added tomatoes and basil to the pan.\n\n' +
  'The rocket launched from the station toward the moon. Astronauts measured the orbit of the planet.\n';

for (const viewport of [{ width: 1440, height: 900 }, { width: 1280, height: 720 }]) {
  test(`a picked model folder without WebGPU runs on WASM and the badge says why (${viewport.width}×${viewport.height})`, async ({ page }) => {
    await page.setViewportSize(viewport);
    await openApp(page);
    await pasteDocument(page, TEXT);
    await controls(page).strategy.selectOption('semantic');
    const badge = page.getByTestId('embed-backend');
    await expect(badge).toHaveText('Table lookup', { timeout: 30_000 });
    await page.getByLabel('Model folder').setInputFiles('public/models/chunkscope-static-en');
    await expect(badge).toHaveText(/^WASM · \d+ threads?$/, { timeout: 60_000 });
    const title = (await badge.getAttribute('title')) ?? '';
    expect(title).toMatch(/^(This browser offers no WebGPU|WebGPU found no GPU adapter|WebGPU's adapter request failed \(.*\)|The model failed to load on WebGPU \(.*\))\. /);
    expect(title).toMatch(/Cross-origin isolated: threads available/); // vite preview sends COOP/COEP
    expect(await page.evaluate(() => self.crossOriginIsolated)).toBe(true);
    await badge.hover();
    await page.screenshot({ path: test.info().outputPath(`hub-backend-${viewport.width}x${viewport.height}.png`) });
  });
}
