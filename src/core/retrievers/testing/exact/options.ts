import type { EvalOptionRow } from '../../../optionRows';

/** The fixture retriever's own setting (the recipe's "a retriever with settings of its own"): one row, nothing else. */
export const EXACT_OPTION_ROWS = [
  {
    name: 'matchCase',
    flag: 'match-case',
    kind: 'boolean',
    default: false,
    group: 'eval',
    help: 'exact: the question must match letter case too',
    eval: true,
    control: { kind: 'checkbox', label: 'Match case' },
  },
] as const satisfies readonly EvalOptionRow[];
