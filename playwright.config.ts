import { defineConfig } from '@playwright/test';
import { CHROMIUM_ARGS, ensureChromium } from './scripts/ensure-chromium.mjs';

// e2e against the BUILT app (`npm run test:e2e` runs `vite build` first) served by `vite preview`.
// A system Chromium with explicit flags; devices['Desktop Chrome'] is not spread because it fakes the UA.
// E2E_PORT: for a machine where 4317 is taken (several people testing at once).
const PORT = Number(process.env.E2E_PORT ?? 4317);
const isCI = Boolean(process.env.CI);

export default defineConfig({
  testDir: 'e2e',
  testMatch: '**/*.spec.ts',
  globalSetup: './e2e/global-setup.ts',
  fullyParallel: false,
  workers: 1, // 2 shared cores: one browser at a time keeps timings honest
  retries: 0,
  forbidOnly: isCI,
  timeout: 60_000,
  expect: { timeout: 15_000 },
  reporter: 'list',
  use: {
    baseURL: `http://localhost:${PORT}`,
    // The app's service worker precaches ~50 MiB after load: only the offline spec wants it (it allows it itself).
    serviceWorkers: 'block',
    browserName: 'chromium',
    viewport: { width: 1400, height: 900 },
    acceptDownloads: true,
    trace: 'retain-on-failure',
    launchOptions: {
      executablePath: ensureChromium(),
      args: CHROMIUM_ARGS,
    },
  },
  webServer: {
    command: `npx vite preview --port ${PORT} --strictPort`,
    url: `http://localhost:${PORT}/`,
    reuseExistingServer: false,
    timeout: 60_000,
    stdout: 'ignore',
    stderr: 'pipe',
  },
});
