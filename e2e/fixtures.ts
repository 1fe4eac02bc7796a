import { test as base, expect } from '@playwright/test';

/**
 * Every e2e test runs with two automatic checks, so each flow (paste, sliders, samples, export, share link,
 * reload) is also a privacy and stability check:
 * - no request leaves the page's origin. `context.on('request')` sees the page's requests and those made by
 *   its workers; only same-origin http(s), data:, blob: and file: URLs are allowed.
 * - no uncaught exception in the page.
 */
export interface Guards {
  /** Every request URL seen in this test's browser context, in order. */
  requests: string[];
}

/**
 * The test function with those checks, allowing requests to the origins `alsoAllowed()` names besides the page's (a
 * spec's fake LLM server, say; a function because such a server starts in beforeAll, after the spec is loaded).
 */
export function guardedTest(alsoAllowed: () => string[] = () => []) {
  return base.extend<{ guards: Guards }>({
    guards: [
      async ({ context, baseURL }, use) => {
        const origin = new URL(baseURL ?? 'http://localhost:4317').origin;
        const requests: string[] = [];
        const pageErrors: string[] = [];
        context.on('request', (request) => requests.push(request.url()));
        const watchPage = (page: import('@playwright/test').Page) =>
          page.on('pageerror', (error) => pageErrors.push(`${page.url()}: ${error.message}`));
        context.pages().forEach(watchPage);
        context.on('page', watchPage);

        await use({ requests });

        const allowed = alsoAllowed();
        const foreign = requests.filter((url) => !isSameOriginOrLocal(url, origin) && !allowed.includes(originOf(url)));
        expect(foreign, `requests that left ${origin}`).toEqual([]);
        expect(pageErrors, 'uncaught exceptions in the page').toEqual([]);
      },
      { auto: true },
    ],
  });
}

export const test = guardedTest();

function originOf(url: string): string {
  try {
    return new URL(url).origin;
  } catch {
    return '';
  }
}

export function isSameOriginOrLocal(url: string, origin: string): boolean {
  // data:, blob: and file: (a downloaded report opened in the browser) never leave the machine.
  if (url.startsWith('data:') || url.startsWith('blob:') || url.startsWith('file:')) return true;
  try {
    return new URL(url).origin === origin;
  } catch {
    return false;
  }
}

export { expect };
