/**
 * The LLM flags of `chunkscope eval` and `sweep`: those of `chunk` (./llmFlags.ts, not repeated here) and the two
 * that choose how summaries are used. Light on purpose: ./eval.ts parses them always and loads ./evalLlm.ts only when
 * --llm is given.
 */
import type { ParseArgsConfig } from 'node:util';
import { LLM_FLAG_ROWS, LLM_PARSE_OPTIONS } from './llmFlags';

const EVAL_ONLY_ROWS = [
  { flag: 'llm-retrieval', arg: '<flat|two-stage>', help: 'flat: every entry in one index; two-stage: summaries first, then the chunks inside the spans they chose (default two-stage for --llm summaries, else flat)' },
  { flag: 'summaries-first', arg: '<n>', help: 'two-stage: how many summaries choose the spans (default 1)' },
] as const;

export const EVAL_LLM_PARSE_OPTIONS: NonNullable<ParseArgsConfig['options']> = {
  ...LLM_PARSE_OPTIONS,
  ...Object.fromEntries(EVAL_ONLY_ROWS.map((r) => [r.flag, { type: 'string' as const }])),
};

/** Whether a flag of the LLM group was given (then ./evalLlm.ts checks them all, e.g. one without --llm). */
export function hasEvalLlmFlag(values: Record<string, unknown>): boolean {
  return Object.keys(EVAL_LLM_PARSE_OPTIONS).some((flag) => values[flag] !== undefined);
}

/** --help's rows: the chunk command's LLM flags, then eval's own. */
export function evalLlmUsage(row: (flag: string, help: string) => string): string[] {
  return [
    '',
    'LLM features (docs/llm.md, "Judged in the lab"): the feature runs over each configuration\'s chunks, answers are',
    'cached (a re-run or another retriever over the same chunks sends nothing), and the output gives the LLM requests,',
    'tokens and money beside recall, and the same figures without the feature (baseline):',
    ...[...LLM_FLAG_ROWS, ...EVAL_ONLY_ROWS].map((r) => row(`--${r.flag}${'arg' in r && r.arg ? ' ' + r.arg : ''}`, r.help)),
  ];
}
