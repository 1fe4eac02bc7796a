/**
 * Trusted Types (issue 29, defence in depth): the page's Content-Security-Policy says
 * `require-trusted-types-for 'script'`, so a DOM sink (innerHTML, outerHTML, insertAdjacentHTML, document.write,
 * script.src, new Worker(url)…) refuses a plain string: an escaping mistake cannot become script execution.
 * Monaco makes its markup through its own named policies (editorViewLayer, …; listed in vite.config.ts).
 * This module installs the page's `default` policy, which only answers what the app itself needs:
 *   - script URLs (new Worker, pdf.js's worker) of the page's own origin or blob: — the chunk, embedding, Monaco
 *     and pdf.js workers; anything else throws;
 *   - an empty string of HTML (clearing an element), nothing else.
 * It must run before any worker is created: main.tsx imports it first.
 */

const POLICY_NAME = 'default';

function sameOriginScriptUrl(url: string): string {
  const parsed = new URL(url, document.baseURI);
  // A blob: URL's origin is its creator's: the page's own blobs pass, like its own files.
  if (parsed.origin !== location.origin) {
    throw new TypeError(`Trusted Types: a script from ${parsed.origin} is not allowed`);
  }
  return url;
}

function emptyHtmlOnly(html: string): string {
  if (html !== '') throw new TypeError('Trusted Types: markup from a plain string is not allowed');
  return html;
}

interface TrustedTypePolicyFactoryLike {
  createPolicy(name: string, rules: { createScriptURL?: (s: string) => string; createHTML?: (s: string) => string }): unknown;
}

const factory = (globalThis as { trustedTypes?: TrustedTypePolicyFactoryLike }).trustedTypes;
// Browsers without Trusted Types (Firefox, Safari) ignore the directive: nothing to install there.
factory?.createPolicy(POLICY_NAME, { createScriptURL: sameOriginScriptUrl, createHTML: emptyHtmlOnly });
