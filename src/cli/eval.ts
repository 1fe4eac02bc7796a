/**
 * `chunkscope eval` and `chunkscope sweep`: score chunkings on a golden set (src/core/eval) from the command line.
 * Flags are the option table's: every chunking option, and the evaluation settings (--retriever, --k, ...).
 */
import { stat } from 'node:fs/promises';
import { basename, join, relative, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { BASE_DEFAULTS, EVAL_OPTIONS, RETRIEVERS, type OptionSpec } from '../core/optionTable';
import { getRetriever } from '../core/retrievers/registry';
import { getStrategy, STRATEGY_NAMES, validateOptions, type StrategyName } from '../core/index';
import { evaluate, sweep, sweepGrid, GoldenSetError, parseGoldenSet, validateEvalOptions, METRIC_NAMES, type EvalDocument, type EvaluateHooks, type GoldenQuestion, type SweepRow } from '../core/eval/index';
import { nodeLoadWasm } from '../node/loadWasm';
import type { Embedder } from '../embed/types';
import { cliAliases, FLAG_OPTIONS, joinNegativeValues, parseArgsMessage, optionHelp, optionsFromFlags, parseArgsOptions, row, takeSwitchValues } from './flags';
import { EVAL_LLM_PARSE_OPTIONS, evalLlmUsage, hasEvalLlmFlag } from './evalLlmFlags';
import { evaluateIndex, lanceIndexDir } from './evalIndex';
import { hasRerankFlag, RERANK_PARSE_OPTIONS, rerankUsage } from './rerankFlags';
import { CliError, decodeText, importInput } from './input';
import { checkQuestions, isConvertedFile, leftOutNote, walkDocuments } from './evalCorpus';
import { DEFAULT_MAX_BYTES, formatBytes, parseMaxBytes, readError, readFileBounded } from './read';

export interface Io {
  stdout: (s: string) => void;
  stderr: (s: string) => void;
  /** Whether stderr is a terminal (an LLM run draws a progress line). */
  stderrIsTty?: boolean;
}

export const SPECS: readonly OptionSpec[] = [...FLAG_OPTIONS, ...EVAL_OPTIONS];

const OWN = {
  questions: { type: 'string' as const, short: 'q' },
  format: { type: 'string' as const },
  report: { type: 'string' as const },
  'max-bytes': { type: 'string' as const },
  index: { type: 'string' as const },
  help: { type: 'boolean' as const, short: 'h' },
};

/** Option kinds a sweep can list ("--size 128,256,512"). */
const SWEEPABLE = new Set(['integer', 'number', 'choice', 'boolean', 'string']);

export function evalUsage(command: 'eval' | 'sweep'): string {
  const lines =
    command === 'eval'
      ? [
          `Usage: chunkscope eval <file|dir>... --questions <file> [--retriever ${RETRIEVERS.join('|')}] [--k 5] [chunk options]`,
          '',
          'Chunk the documents, put every chunk into one index, retrieve k chunks per question and print JSON: the',
          "configuration, the means (recall, precision, IoU, precision-Ω as Chroma's chunking_evaluation defines them on",
          'character ranges; hit@k; MRR), the index cost, and per question the retrieved chunks (document, start, end,',
          'rank, score), its metrics and why it missed. With several documents a question\'s corpus_id names its file',
          '(with or without extension).',
        ]
      : [
          'Usage: chunkscope sweep <file|dir>... --questions <file> --size 128,256,512 --overlap 0,64 [options]',
          '',
          'Run the golden set over every combination of the listed values (any option taking one value can take a',
          'comma-separated list: --strategy, --retriever, --size, ...) and print one row per configuration.',
        ];
  lines.push(
    '',
    'Evaluation:',
    row('-q, --questions <file>', "the golden set: JSON, JSONL ({question, references: [{start, end, content}], corpusId?}) or chunking_evaluation's CSV"),
  );
  for (const spec of EVAL_OPTIONS) {
    const flag = spec.name === 'chunksInContext' ? '--k <n>' : `--${spec.flag}${spec.arg ? ' ' + spec.arg : ''}`;
    const help = spec.name === 'chunksInContext' ? 'how many chunks a question retrieves (default 5; also --chunks-in-context)' : optionHelp(spec);
    lines.push(row(flag, help));
  }
  lines.push(
    row('--format <name>', command === 'eval' ? 'json (default)' : 'json (default: an array of rows) | csv'),
    ...(command === 'eval' ? [row('--index lancedb:<dir>', 'evaluate the chunks (and vectors) chunkscope corpus wrote there instead of chunking the files')] : []),
    row('--report <file>', `also write a report${command === 'sweep' ? " (every configuration's table and charts)" : ''}: markdown when the name ends in .md, else one self-contained HTML file`),
    row('--max-bytes <size>', 'the largest golden set, and the most bytes of documents together, e.g. 200MiB (default 64 MiB)'),
    '',
    'Chunk options: those of `chunkscope chunk` (see chunkscope --help); --strategy, --size, --overlap, --unit, --compat ...',
    ...evalLlmUsage(row),
    ...(command === 'eval' ? rerankUsage(row) : []),
  );
  return lines.join('\n');
}

/** Whether a configuration's retriever (a validated name, or absent: the default) ranks with embeddings. */
function retrieverNeedsEmbeddings(name: unknown): boolean {
  return typeof name === 'string' && (RETRIEVERS as readonly string[]).includes(name) && getRetriever(name).needsEmbeddings;
}

/** Runs `chunkscope eval|sweep <args>`; returns the exit code (errors are thrown for main() to print). */
export async function runEval(command: 'eval' | 'sweep', argv: string[], io: Io): Promise<number> {
  const switches = takeSwitchValues(argv, SPECS);
  let parsed;
  try {
    const config = parseArgsOptions(SPECS, { ...OWN, ...EVAL_LLM_PARSE_OPTIONS, ...RERANK_PARSE_OPTIONS });
    parsed = parseArgs({ args: joinNegativeValues(switches.rest, config), allowPositionals: true, strict: true, options: config });
  } catch (err) {
    throw new CliError(parseArgsMessage(err).replace('(see --help)', `(see chunkscope ${command} --help)`));
  }
  const values = parsed.values as Record<string, unknown>;
  if (values.help) {
    io.stdout(evalUsage(command) + '\n');
    return 0;
  }
  const inputs = parsed.positionals;
  if (inputs.length === 0) throw new CliError(`missing documents: chunkscope ${command} <file|dir>... --questions <file>`);
  if (typeof values.questions !== 'string') throw new CliError('missing --questions <file> (a golden set: JSON, JSONL or CSV)');
  const format = (values.format as string | undefined) ?? 'json';
  const formats = command === 'eval' ? ['json'] : ['json', 'csv'];
  if (!formats.includes(format)) throw new CliError(`unknown format "${format}"; use ${formats.join(' or ')}`);

  // Options first (a bad one fails before any file is read); a sweep's lists become its grid.
  const { base, grid } = command === 'sweep' ? sweepOptions(values, switches.values) : { base: optionsFromFlags(values, switches.values, SPECS) as Record<string, unknown>, grid: [{}] };
  for (const values of grid) {
    const options = { ...base, ...values };
    if (command === 'eval') {
      validateOptions(options);
      validateEvalOptions(options);
    }
  }

  // --llm and its flags are checked before any file is read; their code loads only when asked for.
  const rerank = hasRerankFlag(values) ? (await import('./evalRerank')).rerankSettings(values, command) : null; // src/cli/evalRerank.ts
  const llmSettings = !rerank && hasEvalLlmFlag(values) ? (await import('./evalLlm')).evalLlmSettings(values) : null;
  if (command === 'sweep' && values.report !== undefined && llmSettings) throw new CliError('--report of a sweep covers plain chunks only; leave out --llm or --report');

  const indexDir = lanceIndexDir(values.index, command); // chunks read back from a corpus index (src/cli/evalIndex.ts)
  const { documents, questions } = await readCorpus(inputs, values.questions, values['max-bytes'] as string | undefined, io);

  const hooks: EvaluateHooks = { loadWasm: nodeLoadWasm, onNote: (m) => io.stderr(`chunkscope: note: ${m}\n`) };
  const needsEmbedder = grid.some((g) => {
    const o = { ...base, ...g } as Record<string, unknown>;
    const strategy = typeof o.strategy === 'string' && STRATEGY_NAMES.includes(o.strategy as StrategyName) ? o.strategy : BASE_DEFAULTS.strategy;
    return retrieverNeedsEmbeddings(o.retriever) || getStrategy(strategy).needsEmbeddings === true;
  });
  let embedder: Embedder | undefined;
  if (needsEmbedder) {
    const { createEmbedder } = await import('../embed/index');
    const model = typeof base.embedder === 'string' ? base.embedder : 'builtin';
    embedder = await createEmbedder({ model, allowRemote: model !== 'builtin' });
    const loaded = embedder;
    hooks.embed = (texts) => loaded.embed(texts);
  }
  try {
    if (rerank) return await (await import('./evalRerank')).runEvalRerank({ documents, questions, base, hooks, settings: rerank, io });
    if (llmSettings) return await (await import('./evalLlm')).runEvalWithLlm(command, { documents, questions, base, grid, hooks, format, settings: llmSettings, io });
    if (command === 'eval') {
      const result = indexDir === null ? await evaluate(documents, questions, base, hooks) : await evaluateIndex(indexDir, documents, questions, base, hooks, io);
      const { timings: _t, configuration, ...rest } = result;
      void _t;
      const printed = { configuration, files: documents.map((d) => d.path), ...rest };
      if (typeof values.report === 'string') await (await import('./report/index')).writeEvalReport(values.report, result, documents.map((d) => d.path ?? d.id));
      io.stdout(JSON.stringify(printed, null, 2) + '\n');
    } else {
      const rows = await sweep(documents, questions, grid, base, hooks);
      if (typeof values.report === 'string') await (await import('./report/index')).writeSweepReport(values.report, { rows, base, files: documents.map((d) => d.path ?? d.id) });
      io.stdout(format === 'csv' ? sweepCsv(rows, grid) : JSON.stringify(rows.map(({ ms: _ms, ...r }) => r), null, 2) + '\n');
    }
  } finally {
    await embedder?.dispose();
  }
  return 0;
}

/** A sweep's base options and grid: a flag whose value lists several (comma-separated) values is a grid axis. */
function sweepOptions(values: Record<string, unknown>, switchValues: Map<string, string>): { base: Record<string, unknown>; grid: Record<string, unknown>[] } {
  const axes: Record<string, unknown[]> = {};
  const single: Record<string, unknown> = { ...values };
  const singleSwitches = new Map(switchValues);
  for (const spec of SPECS) {
    if (!SWEEPABLE.has(spec.kind)) continue;
    for (const used of [spec.flag, ...cliAliases(spec)]) {
      const fromSwitch = switchValues.get(used);
      const raw = fromSwitch ?? values[used];
      if (typeof raw !== 'string' || !raw.includes(',')) continue;
      const list = raw.split(',').map((v) => v.trim()).filter((v) => v !== '');
      if (list.length === 0) throw new CliError(`--${used} "${raw}" lists no values; give one or more, e.g. --${used} ${sweepExample(spec)}`);
      // Each value converted (and refused) as the single flag would be.
      axes[spec.name] = list.map((v) => {
        const vals = fromSwitch !== undefined ? {} : { [used]: v };
        const sw = fromSwitch !== undefined ? new Map([[used, v]]) : new Map<string, string>();
        return (optionsFromFlags(vals, sw, [spec]) as Record<string, unknown>)[spec.name];
      });
      delete single[used];
      singleSwitches.delete(used);
    }
  }
  return { base: optionsFromFlags(single, singleSwitches, SPECS) as Record<string, unknown>, grid: sweepGrid(axes) };
}

function sweepExample(spec: OptionSpec): string {
  if (spec.kind === 'integer' || spec.kind === 'number') return '128,256';
  if (spec.kind === 'boolean') return 'true,false';
  return spec.choices?.slice(0, 2).join(',') ?? 'a,b';
}

function csvCell(v: unknown): string {
  const s = v === null || v === undefined ? '' : typeof v === 'number' ? String(Math.round(v * 1e6) / 1e6) : String(v);
  return /[",\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

function sweepCsv(rows: SweepRow[], grid: Record<string, unknown>[]): string {
  const keys = Object.keys(grid[0] ?? {});
  const head = [...keys, ...METRIC_NAMES, 'chunks', 'indexed', 'embeddingTokens', 'error'];
  const lines = [head.join(',')];
  for (const r of rows) {
    lines.push(
      [
        ...keys.map((k) => r.values[k]),
        ...METRIC_NAMES.map((m) => r.means?.[m] ?? null),
        r.index?.chunks ?? null,
        r.index?.indexed ?? null,
        r.index?.embeddingTokens ?? null,
        r.error ?? '',
      ]
        .map(csvCell)
        .join(','),
    );
  }
  return lines.join('\n') + '\n';
}

/**
 * The golden set and the documents of an evaluation (eval, sweep, compare), read within --max-bytes; exits 2 (one
 * line) when no question can be measured on them, and sums up the questions set aside in one stderr line per cause.
 */
export async function readCorpus(inputs: string[], questionsPath: string, maxBytesFlag: string | undefined, io: Io): Promise<{ documents: EvalDocument[]; questions: GoldenQuestion[] }> {
  const maxBytes = maxBytesFlag === undefined ? DEFAULT_MAX_BYTES : parseMaxBytes(maxBytesFlag);
  const questionsText = decodeText(await readFileBounded(questionsPath, { maxBytes, text: true }), questionsPath).text;
  let questions: GoldenQuestion[];
  try {
    questions = parseGoldenSet(questionsText, { name: questionsPath });
  } catch (err) {
    if (err instanceof GoldenSetError) throw new CliError(`${questionsPath}: ${err.message}`);
    throw err;
  }
  const documents = await readDocuments(inputs, resolve(questionsPath), maxBytes, io);
  // No measurable question: exit 2 before any chunking; the rest set aside in one line per cause.
  for (const line of checkQuestions(documents, questions)) io.stderr(`chunkscope: note: ${line}\n`);
  return { documents, questions };
}

/**
 * The documents: files as given, and the files of each directory and its sub-directories (sorted; hidden entries,
 * node_modules and the golden set itself left out). Ids are file names when they are unique, else paths relative to
 * the current directory.
 */
export async function readDocuments(inputs: string[], questionsPath: string, maxBytes: number, io: Io): Promise<EvalDocument[]> {
  const files: string[] = [];
  const leftOut: string[] = [];
  for (const input of inputs) {
    let info;
    try {
      info = await stat(input);
    } catch (err) {
      throw readError(input, err);
    }
    if (info.isDirectory()) await walkDocuments(input, questionsPath, { files, leftOut }, io);
    else files.push(input);
  }
  const note = leftOutNote(leftOut);
  if (note) io.stderr(`chunkscope: note: ${note}\n`);
  if (files.length === 0) throw new CliError(`no documents: the directories given hold no files${leftOut.length > 0 ? ' of a known document type' : ''}`);
  const names = files.map((f) => basename(f));
  const unique = new Set(names).size === names.length;
  const docs: EvalDocument[] = [];
  // The cap holds for the documents together: each is read with what is left of it.
  let left = maxBytes;
  for (let i = 0; i < files.length; i++) {
    const path = files[i]!;
    let bytes: Uint8Array;
    try {
      bytes = await readFileBounded(path, { maxBytes: left, text: !isConvertedFile(path) });
    } catch (err) {
      if (left < maxBytes && err instanceof CliError && /--max-bytes/.test(err.message)) {
        throw new CliError(`the documents together are larger than ${formatBytes(maxBytes)} (at "${path}"); the limit is ${formatBytes(maxBytes)} (raise it with --max-bytes)`);
      }
      throw err;
    }
    left -= bytes.length;
    const decoded = isConvertedFile(path) ? await importInput(bytes, path) : decodeText(bytes, path);
    for (const note of decoded.notes) io.stderr(`chunkscope: note: "${path}": ${note}\n`);
    docs.push({ id: unique ? names[i]! : relative(process.cwd(), path), text: decoded.text, path });
  }
  return docs;
}
