import { EXPORTERS, type Exporter, type ExportFormat } from '../core/export/exporters';
import { IMPORTABLE_EXTENSIONS } from '../import/index';

/**
 * What the first screen shows of two registries, as data: the export buttons (each exporter's descriptor, its
 * renderer left out) and the extensions "Open file…" accepts. vite.config.ts (`builtModules()`) writes this at
 * build as the module `virtual:chunkscope-registry-facts`, so the first screen draws the buttons and the file
 * input without the exporters' renderers and the importers, which load on first use (docs/first-visit.md).
 * Built from the registries on every build, so it cannot go stale; the page never imports this file itself.
 */
export type ExportButton = Omit<Exporter<ExportFormat>, 'render'>;

export interface RegistryFacts {
  exportFormats: ExportButton[];
  importableExtensions: string[];
}

export function registryFacts(): RegistryFacts {
  return {
    exportFormats: EXPORTERS.map(({ render: _render, ...button }) => button),
    importableExtensions: [...IMPORTABLE_EXTENSIONS],
  };
}
