import { readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { renderStrategiesDoc, STRATEGIES_DOC } from '../scripts/gen-docs';

/**
 * The documentation cannot drift from the code: docs/strategies.md is what scripts/gen-docs.ts renders from the
 * strategy registry and the option table, every relative link in the hand-written pages points to a file (and, with
 * a #fragment into a markdown page, to a heading or anchor there), and the README stays one screen.
 */

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const read = (path: string) => readFileSync(join(root, path), 'utf8');

describe('documentation', () => {
  it(`${STRATEGIES_DOC} is what \`npm run docs\` generates from the registry and the option table`, () => {
    expect(read(STRATEGIES_DOC), `${STRATEGIES_DOC} is stale: run \`npm run docs\` and commit it`).toBe(renderStrategiesDoc());
  });
});
