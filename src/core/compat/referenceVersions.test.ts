/**
 * The Chonkie and LlamaIndex compat modes name the release whose behaviour they reproduce (CHONKIE_VERSION,
 * LLAMAINDEX_VERSION): the package the differential tests compare against must be that release, pinned, so a bump
 * of the reference cannot pass unnoticed while the profiles still claim the old one.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { CHONKIE_PACKAGE, CHONKIE_VERSION } from './chonkie/profile';
import { LLAMAINDEX_PACKAGE, LLAMAINDEX_VERSION } from './llamaindex/profile';

const repository = new URL('../../../', import.meta.url);
const manifest = (path: string) => JSON.parse(readFileSync(new URL(path, repository), 'utf8')) as { version: string; devDependencies: Record<string, string> };

describe('the compat profiles name the reference release the differential tests run', () => {
  for (const [name, version] of [[CHONKIE_PACKAGE, CHONKIE_VERSION], [LLAMAINDEX_PACKAGE, LLAMAINDEX_VERSION]] as const) {
    it(`${name} ${version}: pinned in package.json and installed`, () => {
      expect(manifest('package.json').devDependencies[name]).toBe(version);
      expect(manifest(`node_modules/${name}/package.json`).version).toBe(version);
    });
  }
});
