import { parseArgs } from 'node:util';
import { setFlagsFromString } from 'node:v8';
import { ChunkOptionsError, getStrategy, validateOptions, type ChunkHooks } from '../core/index';
import type { Chunk, ResolvedOptions } from '../core/types';
import { chunk } from '../node/index';
import { nodeLoadWasm } from '../node/loadWasm';
import { EXPORT_FORMATS, formatChunks, type ExportFormat } from '../core/format';
import type { Embedder } from '../embed/types';
import { joinNegativeValues, optionsFromFlags, parseArgsMessage, parseArgsOptions, takeSwitchValues, usage } from './flags';
import { takeEmbedFlags } from './embedFlags';
import { CliError, importInput } from './input';
import { DEFAULT_MAX_BYTES, parseMaxBytes, readFileBounded, readStreamBounded } from './read';
// The one place the version is written; esbuild inlines this field into dist/lib/cli.js (scripts/build-lib.mjs).
import { version as VERSION } from '../../package.json';

interface Io {
  /** May return a promise that settles when the output can take more (standard output's back-pressure). */
  stdout: (s: string) => unknown;
  stderr: (s: string) => void;
  /** Standard input as a stream of blocks (read up to --max-bytes, then let go), or all of it (tests). */
  readStdin: () => AsyncIterable<Uint8Array> | Promise<Uint8Array>;
}

const defaultIo: Io = {
  stdout: (s) => (process.stdout.write(s) ? undefined : new Promise<void>((resolve) => process.stdout.once('drain', () => resolve()))),
  stderr: (s) => void process.stderr.write(s),
  readStdin: () => process.stdin,
};

/**
 * `chunkscope chunk big.txt | head`: when the reader of standard output goes away, stop at once and quietly (exit 0,
 * as a command killed by SIGPIPE stops) instead of an unhandled 'error' event and its stack trace.
 */
function stopWhenOutputCloses(): void {
  process.stdout.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code !== 'EPIPE') throw error;
    process.exit(0);
  });
}

/** Runs the CLI; returns the exit code. Every failure is one line on stderr. */
export async function main(argv: string[], io: Io = defaultIo): Promise<number> {
  if (io === defaultIo) stopWhenOutputCloses();
  try {
    return await run(argv, io);
  } catch (err) {
    if (err instanceof CliError || err instanceof ChunkOptionsError) {
      io.stderr(`chunkscope: ${err.message}\n`);
      return 2;
    }
    const message = err instanceof Error ? err.message : String(err);
    io.stderr(`chunkscope: ${message.split('\n')[0]}\n`);
    return 1;
  }
}

async function run(argv: string[], io: Io): Promise<number> {
  // Evaluation commands have their own flags (the chunk options plus --questions, --retriever, --k ...).
  if (argv[0] === 'eval' || argv[0] === 'sweep') return (await import('./eval')).runEval(argv[0], argv.slice(1), { ...io, stderrIsTty: io === defaultIo && process.stderr.isTTY === true });
  if (argv[0] === 'chunk' && argv.some((a) => a === '--input' || a.startsWith('--input='))) return (await import('./filter')).runFilter(argv.slice(1), io); // JSONL filter mode
  if (argv[0] === 'golden') return (await import('./golden')).runGolden(argv.slice(1), io); // golden generate
  if (argv[0] === 'corpus') return (await import('./corpus')).runCorpusCommand(argv.slice(1), io, io === defaultIo && process.stderr.isTTY === true);
  if (argv[0] === 'compare') return (await import('./compare')).runCompare(argv.slice(1), io);
  const switches = takeSwitchValues(argv);
  let parsed;
  try {
    const config = parseArgsOptions();
    parsed = parseArgs({ args: joinNegativeValues(switches.rest, config), allowPositionals: true, strict: true, options: config });
  } catch (err) {
    throw new CliError(parseArgsMessage(err));
  }
  const { values, positionals } = parsed;
  if (values.help) {
    io.stdout(usage() + '\n');
    return 0;
  }
  if (values.version) {
    io.stdout(VERSION + '\n');
    return 0;
  }
  const [command, input, ...extra] = positionals;
  if (command === undefined) throw new CliError('missing command; try `chunkscope chunk <file>` (see --help)');
  if (command !== 'chunk') throw new CliError(`unknown command "${command}"; the commands are chunk, corpus, eval, sweep and compare (see --help)`);
  if (input === undefined) throw new CliError('missing input: give a file path, or - for standard input');
  if (extra.length > 0) throw new CliError(`unexpected argument "${extra[0]}"`);

  const format = (values.format ?? 'json') as CliFormat;
  if (!CLI_FORMATS.includes(format)) throw new CliError(`unknown format "${values.format}"; use ${CLI_FORMATS.join(', ')}`);

  const options = optionsFromFlags(values as Record<string, unknown>, switches.values);
  // --llm and its flags are checked before the file is read; their code loads only when asked for.
  const llmSettings = values.llm === undefined && !hasLlmFlag(values) ? null : (await import('./llm')).llmSettingsFromFlags(values as Record<string, unknown>);
  // The input file's path, unless one was given: code language detection, {file} in headers.
  if (options.path === undefined && input !== '-') options.path = input;
  const embedFlags = takeEmbedFlags(values as Record<string, unknown>, options); // --embedder <folder>, --embed-workers
  validateOptions(options); // bad options fail before the file is read or a model loads

  const maxBytes = values['max-bytes'] === undefined ? DEFAULT_MAX_BYTES : parseMaxBytes(values['max-bytes'] as string);
  // Read as a stream up to the cap; a text file is refused at its first block of NULs or invalid UTF-8.
  const bytes = input === '-' ? await readStreamBounded(io.readStdin(), 'standard input', { maxBytes }) : await readFileBounded(input, { maxBytes });
  // PDF and DOCX are converted (PDF with its page starts); text files are decoded as UTF-8 (binary refused).
  const imported = await importInput(bytes, input === '-' ? 'standard input' : input, { dropPageFurniture: values['drop-page-furniture'] === true });
  const text = imported.text;
  for (const note of imported.notes) io.stderr(`chunkscope: note: ${note}\n`);
  if (imported.pageStarts) options.pageStarts = imported.pageStarts;
  const resolved = validateOptions(options);
  // Notes (e.g. "one sentence: nothing to compare") go to stderr; the chunks on stdout stay valid JSON.
  const hooks: ChunkHooks = { onNote: (message) => io.stderr(`chunkscope: note: ${message}\n`) };
  let embedder: Embedder | undefined;
  if (getStrategy(resolved.strategy).needsEmbeddings) {
    // Loaded only for semantic chunking: the other strategies never pay for transformers.js.
    const { createNodeEmbedder } = await import('../embed/pool/node');
    const model = embedFlags.folder ?? resolved.embedder ?? 'builtin';
    // The built-in model's WebAssembly is compiled by V8's optimizing tier at once (on a background thread): the
    // CLI embeds one document and ends before the usual tier-up, which waits for functions to run hot, would pay.
    if (model === 'builtin') setFlagsFromString('--no-wasm-dynamic-tiering');
    // The built-in model never touches the network; a hub model id is fetched when it is not self-hosted. Hub models
    // and folders embed on a pool of worker threads (--embed-workers), the built-in model in this thread.
    embedder = await createNodeEmbedder(model, { allowRemote: model === resolved.embedder && model !== 'builtin', workers: embedFlags.workers });
    const loaded = embedder;
    hooks.embed = (texts) => loaded.embed(texts);
  }
  refuseHugeRuns(text, resolved);
  try {
    let chunks: Chunk[];
    if (llmSettings) {
      const llm = await import('./llm');
      const llmIo = { ...io, stderrIsTty: io === defaultIo && process.stderr.isTTY === true };
      if (llmSettings.dryRun) {
        await llm.printEstimate(text, options, llmSettings, { ...hooks, loadWasm: nodeLoadWasm }, llmIo);
        return 0;
      }
      const made = await llm.runLlmForCli(text, options, llmSettings, { ...hooks, loadWasm: nodeLoadWasm }, llmIo);
      if (made === null) return 1;
      chunks = made;
    } else chunks = await chunk(text, options, hooks);
    if (format === 'json' || format === 'jsonl') await writeInBatches(chunks, format, io);
    else await io.stdout(formatChunks(chunks, format, { source: input === '-' ? 'stdin' : input, text, documentId: options.documentId }));
  } finally {
    await embedder?.dispose();
  }
  return 0;
}

/**
 * The most chunks one CLI run makes: every chunk is an object with its text, content, id and metadata, and the
 * engine returns them as one array, so a run of tens of millions (`--strategy fixed --size 1` on 50 MiB) would
 * exhaust memory after minutes. Refused up front, in one line, when the text could give more than this many chunks
 * at the size and overlap given (each chunk advancing at least size - overlap characters).
 */
const MAX_CHUNKS = 2_000_000;

export function refuseHugeRuns(text: string, resolved: ResolvedOptions): void {
  if (getStrategy(resolved.strategy).unsized?.(resolved)) return;
  const step = Math.max(1, resolved.size - (resolved.overlap ?? 0));
  const bound = Math.ceil(text.trim().length / step);
  if (bound > MAX_CHUNKS) {
    throw new CliError(
      `size ${resolved.size} with overlap ${resolved.overlap ?? 0} on ${text.length.toLocaleString('en-US')} characters could make up to ` +
        `${bound.toLocaleString('en-US')} chunks; the CLI makes at most ${MAX_CHUNKS.toLocaleString('en-US')} per run: raise --size or split the file`,
    );
  }
}

/**
 * json and jsonl are written a batch of chunks at a time (the same bytes as formatChunks), so the output is never
 * one string the size of all chunks together, and standard output's back-pressure is respected.
 */
async function writeInBatches(chunks: readonly Chunk[], format: 'json' | 'jsonl', io: Io): Promise<void> {
  if (format === 'json' && chunks.length === 0) {
    await io.stdout('[]\n');
    return;
  }
  const BATCH = 512;
  for (let i = 0; i < chunks.length; i += BATCH) {
    let out = format === 'json' && i === 0 ? '[\n' : '';
    for (let j = i; j < Math.min(chunks.length, i + BATCH); j++) {
      if (format === 'jsonl') out += JSON.stringify(chunks[j]) + '\n';
      else out += (j > 0 ? ',\n' : '') + '  ' + JSON.stringify(chunks[j], null, 2).replace(/\n/g, '\n  ');
    }
    if (format === 'json' && i + BATCH >= chunks.length) out += '\n]\n';
    await io.stdout(out);
  }
}

/** Whether any flag of the LLM group was given (then ./llm.ts checks them, e.g. one without --llm). */
function hasLlmFlag(values: Record<string, unknown>): boolean {
  return Object.keys(values).some((k) => (k.startsWith('llm') || k === 'dry-run') && values[k] !== undefined);
}

const CLI_FORMATS = EXPORT_FORMATS;
type CliFormat = ExportFormat;
