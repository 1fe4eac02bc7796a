import type { ChunkOptions } from '../core/types';
import type { LlmPageResult } from './llmSlice';
import type { LlmSettings } from './llmSettings';

/**
 * What the LLM panel exports and copies: the run's chunks and report with the settings that made them, and the
 * library call that reproduces them. Built from the named settings fields only: the API key is not among them and
 * so can never be written (the code reads it from the environment).
 */

/** The settings a file or a program may hold (no key). */
function shareable(settings: LlmSettings) {
  const { provider, feature, baseUrl, model, concurrency, timeoutS, priceIn, priceOut, templates } = settings;
  return provider === 'prompt-api'
    ? { provider, feature, concurrency: 1, timeoutS, priceIn, priceOut, templates }
    : { provider, feature, baseUrl, model, concurrency, timeoutS, priceIn, priceOut, templates };
}

export const LLM_RUN_FILE_KIND = 'chunkscope-llm-run';

/** The run as a JSON file: settings, base options, report and chunks. */
export function llmRunFile(result: LlmPageResult, settings: LlmSettings, options: ChunkOptions): string {
  return JSON.stringify({ kind: LLM_RUN_FILE_KIND, version: 1, llm: shareable(settings), options, cost: result.cost, report: result.report, chunks: result.chunks }, null, 2);
}

/** A program that runs the same feature with the library (the key from OPENAI_API_KEY, never inline). */
export function llmLibraryCode(settings: LlmSettings, options: ChunkOptions): string {
  const s = shareable(settings);
  const templates = Object.entries(s.templates).map(([id, t]) => `      ${JSON.stringify(id)}: { id: ${JSON.stringify(id)}, version: 1, system: ${JSON.stringify(t!.system)}, text: ${JSON.stringify(t!.text)} },`);
  const llm = [
    `    feature: ${JSON.stringify(s.feature)},`,
    ...(s.provider === 'prompt-api'
      ? [`    provider: 'prompt-api', // Chrome's built-in model: runs in a Chrome page only`]
      : [`    baseUrl: ${JSON.stringify(s.baseUrl)},`, `    model: ${JSON.stringify(s.model)},`, `    apiKey: process.env.OPENAI_API_KEY, // never written here`]),
    `    concurrency: ${s.concurrency},`,
    `    policy: { timeoutMs: ${s.timeoutS * 1000} },`,
    ...(templates.length ? ['    templates: {', ...templates, '    },'] : []),
  ];
  return [
    "import { readFileSync } from 'node:fs';",
    "import { chunk } from 'chunkscope';",
    '',
    "const text = readFileSync(process.argv[2], 'utf8');",
    `const chunks = await chunk(text, {`,
    ...Object.entries(options).map(([k, v]) => `  ${k}: ${JSON.stringify(v)},`),
    '  llm: {',
    ...llm,
    '  },',
    '});',
    'console.log(JSON.stringify(chunks, null, 2));',
    '',
  ].join('\n');
}
