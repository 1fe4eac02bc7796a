#!/usr/bin/env node
// Finds the Chromium that the e2e tests and the browser benchmark drive, installing Debian's package when
// nothing is found and apt-get is usable as root. `npx playwright install` cannot download on these machines,
// so a system Chromium is the normal case.
//
// Order: $CHROMIUM_PATH, /usr/bin/chromium, a Chromium that Playwright installed (~/.cache/ms-playwright or
// $PLAYWRIGHT_BROWSERS_PATH). Imported by playwright.config.ts and bench/browser.bench.ts (findChromium,
// CHROMIUM_ARGS); run directly by `npm run test:e2e` (ensure + print the chosen path).
import { accessSync, constants, existsSync, readdirSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

export const SYSTEM_CHROMIUM = '/usr/bin/chromium';

// Flags learned on these machines: no GPU, no sandbox as root, and nothing that phones home (the e2e suite
// asserts that no request leaves the page's origin; background services would only add noise).
export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

const HOW_TO_GET_ONE =
  'No Chromium found: install it (apt-get install chromium) or set CHROMIUM_PATH to a Chromium executable';

function isExecutable(path) {
  try {
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/** Chromium binaries that `playwright install` leaves behind, newest revision first. */
function playwrightInstalledChromiums() {
  const roots = [process.env.PLAYWRIGHT_BROWSERS_PATH, join(homedir(), '.cache', 'ms-playwright')].filter(
    (root) => root && root !== '0' && existsSync(root),
  );
  const found = [];
  for (const root of roots) {
    const dirs = readdirSync(root)
      .filter((name) => /^chromium(_headless_shell)?-\d+$/.test(name))
      // Full Chromium before the headless shell; higher revision first.
      .sort((a, b) => {
        const shellA = a.includes('headless_shell') ? 1 : 0;
        const shellB = b.includes('headless_shell') ? 1 : 0;
        if (shellA !== shellB) return shellA - shellB;
        return Number(b.split('-').pop()) - Number(a.split('-').pop());
      });
    for (const dir of dirs) {
      for (const rel of [
        'chrome-linux64/chrome',
        'chrome-linux/chrome',
        'chrome-headless-shell-linux64/chrome-headless-shell',
        'chrome-linux/headless_shell',
      ]) {
        found.push(join(root, dir, rel));
      }
    }
  }
  return found;
}

/** The Chromium to use, or null when none exists. Never installs anything. */
export function findChromium() {
  const fromEnv = process.env.CHROMIUM_PATH;
  if (fromEnv) return isExecutable(fromEnv) ? fromEnv : null;
  for (const candidate of [SYSTEM_CHROMIUM, ...playwrightInstalledChromiums()]) {
    if (isExecutable(candidate)) return candidate;
  }
  return null;
}

function canInstallWithApt() {
  if (process.getuid?.() !== 0) return false;
  return spawnSync('sh', ['-c', 'command -v apt-get'], { stdio: 'ignore' }).status === 0;
}

/** findChromium(), installing Debian's chromium first when none exists and apt-get is usable as root. */
export function ensureChromium() {
  const found = findChromium();
  if (found) return found;
  if (process.env.CHROMIUM_PATH) {
    throw new Error(`CHROMIUM_PATH=${process.env.CHROMIUM_PATH} is not an executable file`);
  }
  if (!canInstallWithApt()) throw new Error(HOW_TO_GET_ONE);
  console.error('No Chromium found: installing Debian chromium with apt-get…');
  const install = spawnSync(
    'sh',
    ['-c', 'apt-get update && DEBIAN_FRONTEND=noninteractive apt-get install -y chromium'],
    { stdio: 'inherit' },
  );
  if (install.status !== 0 || !isExecutable(SYSTEM_CHROMIUM)) {
    throw new Error(`apt-get install chromium failed; ${HOW_TO_GET_ONE}`);
  }
  return SYSTEM_CHROMIUM;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  try {
    console.log(`Chromium: ${ensureChromium()}`);
  } catch (error) {
    console.error(error instanceof Error ? error.message : String(error));
    process.exit(1);
  }
}
