/**
 * Strings a stranger could put in a document, a file name, a link or a template, each trying to run code or add
 * markup. Every one that runs sets `window.__xss` (or opens a dialog), and every element one could add carries
 * `data-xss`, so the spec can tell execution and injection apart from the page's own markup.
 */
export const XSS_PAYLOADS: readonly string[] = [
  // script tags, in several spellings
  '<script>window.__xss=1</script>',
  '<SCRIPT>alert(1)</SCRIPT>',
  '<<script>window.__xss=1//<</script>',
  '<svg><script>window.__xss=1</script></svg>',
  '</textarea><script>window.__xss=1</script>',
  '</title><script>window.__xss=1</script>',
  // event handlers
  '<img src=x onerror="window.__xss=1" data-xss>',
  '<img src=x onerror=alert(1) data-xss>',
  '<svg onload="window.__xss=1" data-xss>',
  "'><svg/onload=window.__xss=1 data-xss>",
  '"><img src=x onerror=window.__xss=1 data-xss>',
  '<details open ontoggle="window.__xss=1" data-xss>',
  '<input autofocus onfocus="window.__xss=1" data-xss>',
  '<video><source onerror="window.__xss=1" data-xss></video>',
  '<body onload="window.__xss=1">',
  '<math><mtext><table><mglyph><style><img src=x onerror=window.__xss=1 data-xss>',
  // frames, objects, navigation
  '<iframe srcdoc="<script>parent.__xss=1</script>" data-xss></iframe>',
  '<object data="javascript:window.__xss=1" data-xss></object>',
  '<embed src="javascript:window.__xss=1" data-xss>',
  '<meta http-equiv="refresh" content="0;url=javascript:window.__xss=1">',
  '<base href="javascript:window.__xss=1//">',
  '<form><button formaction="javascript:window.__xss=1" data-xss>go</button></form>',
  // javascript: URLs, plain and in markdown
  '<a href="javascript:window.__xss=1" data-xss>click</a>',
  '<a href="&#106;avascript:window.__xss=1" data-xss>entity</a>',
  '<IMG SRC=JaVaScRiPt:window.__xss=1 data-xss>',
  '[click me](javascript:window.__xss=1)',
  '![image](javascript:window.__xss=1)',
  '![x](x" onerror="window.__xss=1)',
  '[ref]: javascript:window.__xss=1',
  'javascript:window.__xss=1',
  'data:text/html,<script>window.__xss=1</script>',
  'https://evil.example/?q=<script>window.__xss=1</script>',
  // entities that must stay text
  '&lt;script&gt;window.__xss=1&lt;/script&gt;',
  '&#60;img src=x onerror=window.__xss=1 data-xss&#62;',
  // template injection
  "{{constructor.constructor('window.__xss=1')()}}",
  '${window.__xss=1}',
  '<%= window.__xss=1 %>',
  '{path}{title}{file}<img src=x onerror=window.__xss=1 data-xss>',
  // style
  "<style>@import 'javascript:window.__xss=1';</style>",
  '<div style="background:url(javascript:window.__xss=1)" data-xss>x</div>',
  // bidi and zero-width tricks
  '\u202Egnp.exe<img src=x onerror=window.__xss=1 data-xss>',
  'zero\u200Bwidth<scr\u200Bipt>window.__xss=1</scr\u200Bipt>',
  '\u2066<img src=x onerror=window.__xss=1 data-xss>\u2069',
];

/** The page must show none of this: called in the page after every surface was filled. */
export function injectionReport(): string[] {
  const found: string[] = [];
  if ((window as unknown as { __xss?: unknown }).__xss !== undefined) found.push('window.__xss was set');
  const walk = (root: Document | ShadowRoot) => {
    for (const el of Array.from(root.querySelectorAll('*'))) {
      if (el.hasAttribute('data-xss')) found.push(`injected <${el.tagName.toLowerCase()} data-xss>`);
      for (const attribute of Array.from(el.attributes)) {
        if (/^on/i.test(attribute.name)) found.push(`<${el.tagName.toLowerCase()}> has a handler attribute ${attribute.name}`);
        if (/^\s*(javascript|data):/i.test(attribute.value) && /^(href|src|action|formaction|data)$/i.test(attribute.name)) {
          found.push(`<${el.tagName.toLowerCase()} ${attribute.name}="${attribute.value.slice(0, 40)}">`);
        }
      }
      if (['IFRAME', 'OBJECT', 'EMBED', 'BASE'].includes(el.tagName)) found.push(`a <${el.tagName.toLowerCase()}> element`);
      // The page's own Content-Security-Policy meta tag is the one http-equiv allowed.
      if (el.tagName === 'META' && el.hasAttribute('http-equiv') && !(el.parentElement === document.head && /^content-security-policy$/i.test(el.getAttribute('http-equiv')!))) {
        found.push('a <meta http-equiv>');
      }
      if (el.tagName === 'SCRIPT' && !(el as HTMLScriptElement).src) found.push('an inline <script>');
      if (el.shadowRoot) walk(el.shadowRoot);
    }
  };
  walk(document);
  return found;
}
