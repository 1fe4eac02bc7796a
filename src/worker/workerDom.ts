import { characterEntities } from 'character-entities';

/**
 * The markdown parser (micromark) decodes named character references (&amp; &nbsp; …) through
 * decode-named-character-reference, whose "browser" build, the one a browser bundle picks, sets an element's
 * innerHTML. A worker has no `document`, so that build throws on load and the chunk worker dies. Until the bundler
 * resolves that package with its "worker" condition (an alias in vite.config.ts), this gives the browser build
 * the one thing it uses, backed by the same entity table its non-DOM build reads. Imported first by the worker.
 */
const scope = globalThis as { document?: unknown };
if (scope.document === undefined) {
  scope.document = {
    createElement() {
      let html = '';
      return {
        set innerHTML(value: string) {
          html = value;
        },
        // "&name;" → its character, else the text unchanged (how the DOM treats an unknown reference).
        get textContent() {
          const name = html.slice(1, -1);
          return html.startsWith('&') && html.endsWith(';') && Object.hasOwn(characterEntities, name) ? characterEntities[name] : html;
        },
      };
    },
  };
}
