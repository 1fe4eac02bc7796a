import { describe, expect, it } from 'vitest';
import { EXPORTERS } from '../core/export/exporters';
import { IMPORTABLE_EXTENSIONS } from '../import/index';
import { registryFacts } from './registryFacts';

/** What vite.config.ts builds as `virtual:chunkscope-registry-facts` for the first screen. */
describe('registry facts built ahead', () => {
  it('are every exporter, in order, with all it says but its renderer (the export buttons), as JSON keeps them', () => {
    const facts = JSON.parse(JSON.stringify(registryFacts())) as ReturnType<typeof registryFacts>;
    expect(facts.exportFormats.map((f) => f.id)).toEqual(EXPORTERS.map((e) => e.id));
    for (const [i, exporter] of EXPORTERS.entries()) {
      const { render, ...about } = exporter;
      expect(typeof render).toBe('function');
      expect(facts.exportFormats[i]).toEqual(about);
    }
  });

  it('are the importers\u2019 extensions ("Open file…" accepts them)', () => {
    expect(registryFacts().importableExtensions).toEqual([...IMPORTABLE_EXTENSIONS]);
    expect(registryFacts().importableExtensions).toEqual(expect.arrayContaining(['pdf', 'docx', 'md', 'txt']));
  });
});
