import type { EvalOptionRow } from '../../optionRows';

/**
 * The hybrid retriever's own evaluation setting, declared once here: its descriptor (./retriever.ts) names these
 * rows, so the option table, EvalSettings, the CLI's --hybrid-weight, the URL key and the lab's slider derive from them.
 * Checked by its kind and min/max (src/core/optionTable.ts, plainResolve).
 */
export const HYBRID_OPTION_ROWS = [
  {
    name: 'hybridWeight',
    flag: 'hybrid-weight',
    kind: 'number',
    default: 0.5,
    min: 0,
    max: 1,
    group: 'eval',
    arg: '<w>',
    help: "hybrid: the dense ranking's weight in the fusion, 0..1 (BM25's is 1 - w)",
    eval: true,
    control: { kind: 'slider', label: 'Dense weight', min: 0, max: 1, step: 0.05 },
  },
] as const satisfies readonly EvalOptionRow[];
