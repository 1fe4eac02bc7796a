/**
 * `chunkscope compare <files> --questions Q --a "<chunk options>" --b "<chunk options>"`: evaluate two
 * configurations on the same golden set and say whether the difference is real (src/core/eval/significance.ts).
 * Flags outside --a / --b are shared by both; --a and --b hold flags as `chunkscope eval` takes them.
 */
import { parseArgs } from 'node:util';
import { BASE_DEFAULTS, RETRIEVERS } from '../core/optionTable';
import { getRetriever } from '../core/retrievers/registry';
import { getStrategy, STRATEGY_NAMES, validateOptions, type StrategyName } from '../core/index';
import { COMPARED_METRICS, compareQuestionResults, evaluate, validateEvalOptions, type ComparedMetric, type EvalResult, type EvaluateHooks } from '../core/eval/index';
import { nodeLoadWasm } from '../node/loadWasm';
import type { Embedder } from '../embed/types';
import { readCorpus, SPECS, type Io } from './eval';
import { joinNegativeValues, optionsFromFlags, parseArgsMessage, parseArgsOptions, row, takeSwitchValues } from './flags';
import { CliError, parseDecimal, parseWholeNumber } from './input';

const OWN = {
  questions: { type: 'string' as const, short: 'q' },
  metric: { type: 'string' as const },
  alpha: { type: 'string' as const },
  resamples: { type: 'string' as const },
  seed: { type: 'string' as const },
  report: { type: 'string' as const },
  'max-bytes': { type: 'string' as const },
  help: { type: 'boolean' as const, short: 'h' },
};

export function compareUsage(): string {
  return [
    `Usage: chunkscope compare <file|dir>... --questions <file> --a "<options>" --b "<options>" [--retriever ${RETRIEVERS.join('|')}] [--k 5]`,
    '',
    'Evaluate configuration A and configuration B on the same golden set and print JSON: each side\'s means, per metric',
    'the mean paired difference (B − A) with its 95% bootstrap interval and the Wilcoxon signed-rank p-value, the',
    'questions B wins, loses and ties, and the verdict: "a" or "b" only when the difference is significant, else "none".',
    '',
    row('--a "<options>"', 'configuration A: chunk and evaluation flags as `chunkscope eval` takes them, e.g. "--size 256 --overlap 0"'),
    row('--b "<options>"', 'configuration B, the same way; flags given outside --a / --b apply to both'),
    row('--metric <name>', `the metric the verdict is about: ${COMPARED_METRICS.join(' | ')} (default recall)`),
    row('--alpha <p>', 'the significance level (default 0.05)'),
    row('--resamples <n>', 'bootstrap resamples (default 1000)'),
    row('--seed <n>', 'the bootstrap PRNG seed (default 1)'),
    row('--report <file>', 'also write a report: markdown when the name ends in .md, else one self-contained HTML file'),
    row('-q, --questions <file>', 'the golden set (JSON, JSONL or chunking_evaluation CSV)'),
    row('--max-bytes <size>', 'the largest golden set, and the most bytes of documents together (default 64 MiB)'),
  ].join('\n');
}

/** Split an option string as a shell would for plain words and quotes ("--separators '\n\n'"). */
export function splitOptionString(text: string): string[] {
  const out: string[] = [];
  const re = /"((?:[^"\\]|\\.)*)"|'([^']*)'|(\S+)/g;
  for (let m = re.exec(text); m !== null; m = re.exec(text)) out.push(m[1] !== undefined ? m[1].replace(/\\(["\\])/g, '$1') : (m[2] ?? m[3]!));
  return out;
}

/** --a and --b with their values taken out first: their values start with "--", which parseArgs would take for flags. */
function takeSides(argv: readonly string[]): { rest: string[]; values: { a?: string; b?: string } } {
  const rest: string[] = [];
  const values: { a?: string; b?: string } = {};
  for (let i = 0; i < argv.length; i++) {
    const m = /^--(a|b)(?:=([\s\S]*))?$/.exec(argv[i]!);
    if (!m) {
      rest.push(argv[i]!);
      continue;
    }
    const value = m[2] ?? argv[++i];
    if (value === undefined) throw new CliError(`--${m[1]} needs a value: the configuration's flags in quotes, e.g. --${m[1]} "--size 256"`);
    values[m[1] as 'a' | 'b'] = value;
  }
  return { rest, values };
}

/** One side's flags (--a / --b) as options; a bad flag is one line naming the side. */
function sideOptions(side: 'a' | 'b', text: string): Record<string, unknown> {
  const switches = takeSwitchValues(splitOptionString(text), SPECS);
  try {
    const config = parseArgsOptions(SPECS, {});
    const parsed = parseArgs({ args: joinNegativeValues(switches.rest, config), allowPositionals: false, strict: true, options: config });
    return optionsFromFlags(parsed.values as Record<string, unknown>, switches.values, SPECS) as Record<string, unknown>;
  } catch (err) {
    if (err instanceof CliError) throw new CliError(`--${side}: ${err.message}`);
    throw new CliError(`--${side}: ${parseArgsMessage(err).replace(' (see --help)', '')} (see chunkscope compare --help)`);
  }
}

function numberFlag(flag: string, raw: unknown, fallback: number, check: (x: number) => boolean, what: string, whole = false): number {
  if (raw === undefined) return fallback;
  const x = whole ? parseWholeNumber(flag, raw as string) : parseDecimal(flag, raw as string);
  if (!check(x)) throw new CliError(`${flag} must be ${what} (got ${raw as string})`);
  return x;
}

function needsEmbedder(options: Record<string, unknown>): boolean {
  const retriever = options.retriever;
  const dense = typeof retriever === 'string' && (RETRIEVERS as readonly string[]).includes(retriever) && getRetriever(retriever).needsEmbeddings;
  const strategy = typeof options.strategy === 'string' && STRATEGY_NAMES.includes(options.strategy as StrategyName) ? options.strategy : BASE_DEFAULTS.strategy;
  return dense || getStrategy(strategy).needsEmbeddings === true;
}

/** Runs `chunkscope compare <args>`; returns the exit code (errors are thrown for main() to print). */
export async function runCompare(argv: string[], io: Io): Promise<number> {
  const sides = takeSides(argv);
  const switches = takeSwitchValues(sides.rest, SPECS);
  let parsed;
  try {
    const config = parseArgsOptions(SPECS, OWN);
    parsed = parseArgs({ args: joinNegativeValues(switches.rest, config), allowPositionals: true, strict: true, options: config });
  } catch (err) {
    throw new CliError(parseArgsMessage(err).replace('(see --help)', '(see chunkscope compare --help)'));
  }
  const values: Record<string, unknown> = { ...(parsed.values as Record<string, unknown>), ...sides.values };
  if (values.help) {
    io.stdout(compareUsage() + '\n');
    return 0;
  }
  const inputs = parsed.positionals;
  if (inputs.length === 0) throw new CliError('missing documents: chunkscope compare <file|dir>... --questions <file> --a "<options>" --b "<options>"');
  if (typeof values.questions !== 'string') throw new CliError('missing --questions <file> (a golden set: JSON, JSONL or CSV)');
  if (typeof values.a !== 'string' || typeof values.b !== 'string') throw new CliError('missing --a "<options>" or --b "<options>": the two configurations to compare, e.g. --a "--size 256" --b "--size 512"');
  const metric = (values.metric ?? 'recall') as ComparedMetric;
  if (!COMPARED_METRICS.includes(metric)) throw new CliError(`unknown metric "${metric}"; use ${COMPARED_METRICS.join(', ')}`);
  const alpha = numberFlag('--alpha', values.alpha, 0.05, (x) => x > 0 && x < 1, 'between 0 and 1');
  const resamples = numberFlag('--resamples', values.resamples, 1000, (x) => x >= 1 && x <= 1_000_000, 'between 1 and 1000000', true);
  const seed = numberFlag('--seed', values.seed, 1, (x) => x >= 0 && x <= 0xffffffff, 'between 0 and 4294967295', true);

  // Both configurations are checked before any file is read.
  const shared = optionsFromFlags(values, switches.values, SPECS) as Record<string, unknown>;
  const optionsA = { ...shared, ...sideOptions('a', values.a) };
  const optionsB = { ...shared, ...sideOptions('b', values.b) };
  for (const [side, options] of [['a', optionsA], ['b', optionsB]] as const) {
    try {
      validateOptions(options);
      validateEvalOptions(options);
    } catch (err) {
      throw new CliError(`--${side}: ${(err as Error).message}`);
    }
  }

  const { documents, questions } = await readCorpus(inputs, values.questions, values['max-bytes'] as string | undefined, io);

  const hooks: EvaluateHooks = { loadWasm: nodeLoadWasm, onNote: (m) => io.stderr(`chunkscope: note: ${m}\n`) };
  let embedder: Embedder | undefined;
  if (needsEmbedder(optionsA) || needsEmbedder(optionsB)) {
    const models = new Set([optionsA.embedder ?? 'builtin', optionsB.embedder ?? 'builtin']);
    if (models.size > 1) throw new CliError('--a and --b name different embedders; compare them one model at a time (give --embedder outside --a / --b)');
    const { createEmbedder } = await import('../embed/index');
    const model = String([...models][0]);
    embedder = await createEmbedder({ model, allowRemote: model !== 'builtin' });
    const loaded = embedder;
    hooks.embed = (texts) => loaded.embed(texts);
  }
  try {
    const a = await evaluate(documents, questions, optionsA, hooks);
    const b = await evaluate(documents, questions, optionsB, hooks);
    const significance = compareQuestionResults(a.questions, b.questions, { metric, alpha, resamples, seed });
    const printed = comparisonJson(a, b, significance, documents.map((d) => d.path ?? d.id));
    if (typeof values.report === 'string') await (await import('./report/index')).writeCompareReport(values.report, { a, b, significance, files: printed.files });
    io.stdout(JSON.stringify(printed, null, 2) + '\n');
  } finally {
    await embedder?.dispose();
  }
  return 0;
}

/** What compare prints: both configurations and their means, the differences and the verdict. */
export function comparisonJson(a: EvalResult, b: EvalResult, s: ReturnType<typeof compareQuestionResults>, files: string[]) {
  return {
    configurations: { a: a.configuration, b: b.configuration },
    files,
    measured: s.questions,
    a: { ...a.means, ...a.rankMeans },
    b: { ...b.means, ...b.rankMeans },
    difference: Object.fromEntries(Object.entries(s.difference).map(([m, d]) => [m, { mean: d.mean, ci95: d.ci95, pValue: d.pValue, test: d.test, wins: d.wins, losses: d.losses, ties: d.ties }])),
    metric: s.metric,
    alpha: s.alpha,
    wins: s.wins,
    losses: s.losses,
    ties: s.ties,
    verdict: s.verdict,
    bootstrap: { resamples: s.resamples, seed: s.seed },
    byDocument: { a: a.byDocument, b: b.byDocument },
    skipped: a.skipped.length,
  };
}
