/**
 * `chunkscope golden generate <file>... --llm-base-url URL --llm-model NAME [--per-document 5] [--seed 1]
 * [chunk options] > candidates.jsonl`: candidate questions from the LLM (core/golden/generate.ts), one JSON line
 * each, marked `generated: true` with the aligned span, its alignment score and the document; the file loads as a
 * golden set in `chunkscope eval --questions`. One stderr line sums up: sampled, kept, dropped, failed.
 */
import { basename, relative } from 'node:path';
import { parseArgs } from 'node:util';
import { generateGoldenSet } from '../core/golden/generate';
import type { EvalDocument } from '../core/eval/evaluate';
import { validateOptions } from '../core/options';
import { FLAG_OPTIONS, joinNegativeValues, optionsFromFlags, parseArgsMessage, parseArgsOptions, row, takeSwitchValues } from './flags';
import { CliError, decodeText, parseWholeNumber } from './input';
import { llmSettingsFromFlags } from './llm';
import { LLM_PARSE_OPTIONS } from './llmFlags';
import { DEFAULT_MAX_BYTES, parseMaxBytes, readFileBounded } from './read';

interface Io {
  stdout: (s: string) => void;
  stderr: (s: string) => void;
}

const OWN = {
  'per-document': { type: 'string' as const },
  seed: { type: 'string' as const },
  'max-bytes': { type: 'string' as const },
  help: { type: 'boolean' as const, short: 'h' },
};

export function goldenUsage(): string {
  return [
    'Usage: chunkscope golden generate <file>... --llm-base-url <url> --llm-model <name> [--per-document 5] [--seed 1] [chunk options] > candidates.jsonl',
    '',
    'For a seeded sample of chunks of each document, the LLM proposes a question and the exact excerpt that answers it;',
    'the excerpt is aligned to the source and kept only when it aligns exactly or near-exactly. Each line is a golden',
    'question marked "generated": true (load it with chunkscope eval --questions). Generated questions are easier than',
    'real ones: review them before trusting their figures (docs/lab.md).',
    '',
    row('--per-document <n>', 'chunks sampled per document (default 5)'),
    row('--seed <n>', 'the sample\'s seed (default 1)'),
    row('--llm-base-url <url>, --llm-model <name>', 'the OpenAI-compatible endpoint and model; also --llm-api-key-env, --llm-cache, --llm-timeout (as for chunk --llm)'),
    row('--max-bytes <size>', 'the most bytes of documents together (default 64 MiB)'),
    'Chunk options (how sections are cut): those of `chunkscope chunk`, e.g. --strategy markdown --size 800',
  ].join('\n');
}

function wholeFlag(values: Record<string, unknown>, flag: string, fallback: number, least: number): number {
  const raw = values[flag] as string | undefined;
  if (raw === undefined) return fallback;
  const n = parseWholeNumber(`--${flag}`, raw);
  if (n < least) throw new CliError(`--${flag} must be at least ${least} (got ${raw})`);
  return n;
}

export async function runGolden(argv: string[], io: Io): Promise<number> {
  if (argv[0] === '--help' || argv[0] === '-h') {
    io.stdout(goldenUsage() + '\n');
    return 0;
  }
  if (argv[0] !== 'generate') throw new CliError(argv[0] === undefined ? 'missing command: chunkscope golden generate <file>... --llm-base-url <url> --llm-model <name>' : `unknown golden command "${argv[0]}"; use chunkscope golden generate`);
  const switches = takeSwitchValues(argv.slice(1), FLAG_OPTIONS);
  let parsed;
  try {
    const config = parseArgsOptions(FLAG_OPTIONS, { ...OWN, ...LLM_PARSE_OPTIONS });
    parsed = parseArgs({ args: joinNegativeValues(switches.rest, config), allowPositionals: true, strict: true, options: config });
  } catch (err) {
    throw new CliError(parseArgsMessage(err).replace('(see --help)', '(see chunkscope golden generate --help)'));
  }
  const values = parsed.values as Record<string, unknown>;
  if (values.help) {
    io.stdout(goldenUsage() + '\n');
    return 0;
  }
  if (parsed.positionals.length === 0) throw new CliError('missing documents: chunkscope golden generate <file>... --llm-base-url <url> --llm-model <name>');
  for (const flag of ['llm', 'dry-run', 'llm-strict']) if (values[flag] !== undefined) throw new CliError(`--${flag} does not apply to golden generate`);
  const perDocument = wholeFlag(values, 'per-document', 5, 1);
  const seed = wholeFlag(values, 'seed', 1, 0);
  const chunkOptions = optionsFromFlags(values, switches.values);
  validateOptions(chunkOptions);
  const { llm } = llmSettingsFromFlags({ ...values, llm: 'contextual' })!;
  const maxBytes = values['max-bytes'] === undefined ? DEFAULT_MAX_BYTES : parseMaxBytes(values['max-bytes'] as string);
  const files = parsed.positionals;
  const names = files.map((f) => basename(f));
  const unique = new Set(names).size === names.length;
  const documents: EvalDocument[] = [];
  for (let i = 0; i < files.length; i++) {
    const decoded = decodeText(await readFileBounded(files[i]!, { maxBytes, text: true }), files[i]!);
    documents.push({ id: unique ? names[i]! : relative(process.cwd(), files[i]!), text: decoded.text, path: files[i] });
  }
  const { candidates, report } = await generateGoldenSet(documents, { ...llm, perDocument, seed, chunkOptions });
  for (const c of candidates) io.stdout(JSON.stringify(c) + '\n');
  const failures = Object.entries(report.failuresByKind).map(([kind, n]) => `${n} ${kind}`).join(', ');
  io.stderr(`chunkscope: golden: ${report.sampled} sections sampled, ${report.kept} kept, ${report.dropped} dropped (excerpt not found in its section), ${report.failed} failed${failures ? ` (${failures})` : ''}; ${report.sent} sent, ${report.cached} cached, ${report.tokens.input + report.tokens.output} tokens\n`);
  return report.sampled > 0 && report.kept === 0 && report.failed === report.sampled ? 1 : 0;
}
