/**
 * `chunkscope corpus <dir|file...|-> --out DIR [chunk options]` and `chunkscope corpus merge DIR` (docs/corpus.md).
 * The chunk options are the `chunk` command's flags (the option table); this file adds only the corpus's own.
 */
import { cpus } from 'node:os';
import { parseArgs, type ParseArgsConfig } from 'node:util';
import { runCorpus, type CorpusProgress, type CorpusSummary } from '../node/corpus/run';
import { mergeShards } from '../node/corpus/merge';
import { ManifestError } from '../node/corpus/manifest';
import { DuplicateIdError } from '../node/corpus/walk';
import type { CorpusLlm } from '../node/corpus/config';
import { LLM_PARSE_OPTIONS } from './llmFlags';
import { FLAG_OPTIONS, joinNegativeValues, optionsFromFlags, parseArgsMessage, parseArgsOptions, row, takeSwitchValues } from './flags';
import { CliError, parseWholeNumber } from './input';
import { DEFAULT_MAX_BYTES, formatBytes, parseMaxBytes } from './read';

interface CorpusIo {
  stdout: (s: string) => unknown;
  stderr: (s: string) => void;
  readStdin: () => AsyncIterable<Uint8Array> | Promise<Uint8Array>;
}

const CORPUS_FLAGS: NonNullable<ParseArgsConfig['options']> = {
  out: { type: 'string', short: 'o' },
  jobs: { type: 'string', short: 'j' },
  include: { type: 'string', multiple: true },
  exclude: { type: 'string', multiple: true },
  shard: { type: 'string' },
  'max-bytes': { type: 'string' },
  'drop-page-furniture': { type: 'boolean' },
  'keep-headers': { type: 'boolean' },
  to: { type: 'string' },
  embed: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
  ...LLM_PARSE_OPTIONS,
};

export function corpusUsage(): string {
  return [
    'Usage: chunkscope corpus <folder|file...|-> --out <dir> [chunk options]',
    '       chunkscope corpus merge <dir>',
    '',
    'Chunk every document under the folders (or the files given, or the paths listed on standard input with -) with',
    'one configuration into <dir>/chunks.jsonl, manifest.json and changes.json. Run again on the same --out: only',
    'documents whose content or the configuration changed are chunked again. Chunk options: see chunkscope --help.',
    '',
    row('-o, --out <dir>', 'the output folder (required)'),
    row('-j, --jobs <n>', `worker threads (default: the number of cores, ${cpus().length} here)`),
    row('--include <glob>', 'only files matching (repeatable; default: the document types the page opens)'),
    row('--exclude <glob>', 'leave out files and folders matching (repeatable); a glob without / matches a name at any depth'),
    row('--shard <i/N|auto/N>', 'only shard i of N (0-based, by a hash of the document id); auto takes i from JOB_COMPLETION_INDEX or AWS_BATCH_JOB_ARRAY_INDEX'),
    row('--max-bytes <size>', `larger documents are skipped (default ${formatBytes(DEFAULT_MAX_BYTES)})`),
    row('--drop-page-furniture', 'PDF: drop lines repeated at the top or bottom of most pages'),
    row('--to lancedb:<dir>', "also apply the run to a LanceDB table (docs/distributed.md): changed and deleted documents' old chunks removed, new ones upserted"),
    row('--embed', 'with --to: store each chunk\'s vector from --embedder (default: the built-in model), cached by text'),
    row('--llm <feature> ...', 'an LLM feature over every document\'s chunks, with the chunk command\'s --llm-* flags, through --llm-cache'),
    '',
    'merge <dir> [--to lancedb:<dir> [--embed]]: combine the parts of N shard runs in <dir> into chunks.jsonl,',
    'manifest.json and changes.json (then apply them to the LanceDB table).',
  ].join('\n');
}

/** `--shard 3/16` or `--shard auto/16` (index from the job array's environment). */
export function parseShard(raw: string, env: NodeJS.ProcessEnv = process.env): { index: number; count: number } {
  const m = /^(auto|\d+)\/(\d+)$/.exec(raw.trim());
  if (!m) throw new CliError(`--shard must be i/N or auto/N, e.g. 3/16 (got "${raw}")`);
  const count = Number(m[2]);
  if (count < 1 || count > 99999) throw new CliError(`--shard: the number of shards must be 1 to 99999 (got ${m[2]})`);
  let index: number;
  if (m[1] === 'auto') {
    const name = env.JOB_COMPLETION_INDEX !== undefined ? 'JOB_COMPLETION_INDEX' : env.AWS_BATCH_JOB_ARRAY_INDEX !== undefined ? 'AWS_BATCH_JOB_ARRAY_INDEX' : null;
    if (name === null) throw new CliError('--shard auto/N needs JOB_COMPLETION_INDEX (Kubernetes indexed job) or AWS_BATCH_JOB_ARRAY_INDEX (AWS Batch array job); neither is set');
    if (!/^\d+$/.test(env[name]!)) throw new CliError(`${name} must be a whole number (got "${env[name]}")`);
    index = Number(env[name]);
  } else index = Number(m[1]);
  if (index >= count) throw new CliError(`--shard: index ${index} is not below the number of shards, ${count} (indices are 0-based)`);
  return { index, count };
}

export async function runCorpusCommand(argv: string[], io: CorpusIo, stderrIsTty = false): Promise<number> {
  if (argv[0] === 'merge') return runMerge(argv.slice(1), io);
  const switches = takeSwitchValues(argv);
  let parsed;
  try {
    const config = parseArgsOptions(FLAG_OPTIONS, CORPUS_FLAGS);
    parsed = parseArgs({ args: joinNegativeValues(switches.rest, config), allowPositionals: true, strict: true, options: config });
  } catch (err) {
    throw new CliError(parseArgsMessage(err));
  }
  const { values, positionals } = parsed;
  if (values.help) {
    await io.stdout(corpusUsage() + '\n');
    return 0;
  }
  if (values.out === undefined) throw new CliError('corpus needs --out <dir>, the folder to write chunks.jsonl and manifest.json into');
  if (positionals.length === 0) throw new CliError('corpus needs a folder, files, or - (paths on standard input)');
  const options = optionsFromFlags(values as Record<string, unknown>, switches.values);
  const llm = await llmFromFlags(values as Record<string, unknown>);
  const jobs = values.jobs === undefined ? cpus().length : parseWholeNumber('--jobs', values.jobs as string);
  if (jobs < 1) throw new CliError(`--jobs must be at least 1 (got ${jobs})`);
  const inputs = positionals.includes('-') ? [...positionals.filter((p) => p !== '-'), ...(await pathsFromStdin(io))] : positionals;
  const target = await openTarget(values.to as string | undefined, values.embed === true, options.embedder);
  const progress = new ProgressReport(io, stderrIsTty);
  let summary: CorpusSummary;
  try {
    summary = await runCorpus({
      inputs,
      outDir: values.out as string,
      options,
      jobs,
      include: values.include as string[] | undefined,
      exclude: values.exclude as string[] | undefined,
      maxBytes: values['max-bytes'] === undefined ? DEFAULT_MAX_BYTES : parseMaxBytes(values['max-bytes'] as string),
      dropPageFurniture: values['drop-page-furniture'] === true,
      shard: values.shard === undefined ? null : parseShard(values.shard as string),
      onProgress: (p) => progress.update(p),
      onFailure: (path, reason) => progress.line(`chunkscope: skipped ${path}: ${reason}`),
      ...(target ? { sink: target.corpusSink } : {}),
      llm,
    });
  } catch (err) {
    if (err instanceof ManifestError || err instanceof DuplicateIdError || isLanceSinkError(err)) throw new CliError(err.message);
    throw err;
  } finally {
    progress.stop();
    await target?.sink.close();
  }
  for (const result of target?.corpusSink.results ?? []) reportLance(values.to as string, result, io);
  return report(summary, progress.seconds(), io, values.shard !== undefined);
}

/** --llm and its flags (src/cli/llm.ts checks them) as the corpus run's plain-data LLM settings; null without. */
async function llmFromFlags(values: Record<string, unknown>): Promise<CorpusLlm | null> {
  if (!Object.keys(values).some((k) => (k.startsWith('llm') || k === 'dry-run') && values[k] !== undefined)) return null;
  const settings = (await import('./llm')).llmSettingsFromFlags(values);
  if (settings === null) return null;
  if (settings.dryRun) throw new CliError('--dry-run is for chunkscope chunk (one document); a corpus run sends only what its cache does not hold');
  const { feature, provider, baseUrl, model, apiKey, cache, concurrency, policy, structuredOutput, settings: featureSettings } = settings.llm;
  const { DirectoryCache } = await import('../node/llmCache');
  return { feature, provider, baseUrl, model, apiKey, cacheDir: cache instanceof DirectoryCache ? cache.dir : null, concurrency, timeoutMs: policy?.timeoutMs, structuredOutput, settings: featureSettings };
}

type LanceModule = typeof import('../node/lancedb/index');
type LanceSink = NonNullable<Awaited<ReturnType<LanceModule['openLanceTarget']>>>;

/** `--to lancedb:DIR [--embed]`: the sink, opened before any document is read (a bad target fails first). LanceDB loads only then. */
async function openTarget(to: string | undefined, embed: boolean, embedder: string | undefined): Promise<{ sink: LanceSink; corpusSink: ReturnType<LanceModule['asCorpusSink']> } | null> {
  if (to === undefined) {
    if (embed) throw new CliError('--embed needs --to lancedb:<dir> (where the vectors go)');
    return null;
  }
  if (!/^lancedb:./.test(to)) throw new CliError(`--to takes lancedb:<dir> (got "${to}")`);
  const { openLanceTarget, asCorpusSink } = await import('../node/lancedb/index');
  try {
    const sink = (await openLanceTarget(to, { embedModel: embed ? (embedder ?? 'builtin') : null }))!;
    return { sink, corpusSink: asCorpusSink(sink) };
  } catch (err) {
    if (isLanceSinkError(err)) throw new CliError(err.message);
    throw err;
  }
}

const isLanceSinkError = (err: unknown): err is Error => err instanceof Error && err.name === 'LanceSinkError';

function reportLance(to: string, r: import('../node/lancedb/index').LanceApplyResult, io: CorpusIo): void {
  const n = (x: number) => x.toLocaleString('en-US');
  const vectors = r.embedded.cached + r.embedded.computed > 0 ? `; vectors: ${n(r.embedded.computed)} computed, ${n(r.embedded.cached)} from the cache` : '';
  io.stderr(`chunkscope: ${to}: ${n(r.upserted)} rows written, ${n(r.deleted)} deleted, ${n(r.kept)} kept${vectors}\n`);
}

async function pathsFromStdin(io: CorpusIo): Promise<string[]> {
  const source = io.readStdin();
  let text = '';
  const decoder = new TextDecoder();
  if (Symbol.asyncIterator in source) for await (const block of source) text += decoder.decode(block, { stream: true });
  else text = decoder.decode(await source);
  return text.split(/\r?\n/).filter((line) => line.trim() !== '');
}

/** The summary lines; exit 1 when nothing could be done (no documents found, or every one failed). */
function report(summary: CorpusSummary, seconds: number, io: CorpusIo, sharded: boolean): number {
  const n = (x: number) => x.toLocaleString('en-US');
  if (summary.finishedInterrupted) io.stderr('chunkscope: finished the commit of an interrupted run\n');
  if (summary.rebuildReason && summary.rebuildReason !== 'no previous run') io.stderr(`chunkscope: re-chunking every document: ${summary.rebuildReason}\n`);
  if (summary.llm) io.stderr(`chunkscope: llm: ${n(summary.llm.requests)} requests (${n(summary.llm.cached)} from the cache, ${n(summary.llm.sent)} sent)\n`);
  if (summary.resumed > 0) io.stderr(`chunkscope: resumed: ${n(summary.resumed)} documents were finished by the interrupted run\n`);
  io.stderr(
    `chunkscope: ${n(summary.documents)} documents (${n(summary.added)} added, ${n(summary.changed)} changed, ${n(summary.unchanged)} unchanged, ` +
      `${n(summary.deleted)} deleted), ${n(summary.failed)} failed; ${n(summary.chunks)} chunks; ${n(summary.chunked)} chunked in ${seconds.toFixed(1)} s → ${summary.files.chunks}\n`,
  );
  // Nothing to do is a failure, except for a shard the hash gave no documents, or a run that only deletes.
  if (summary.documents > 0 || summary.deleted > 0) return 0;
  if (summary.failed === 0 && sharded) {
    io.stderr('chunkscope: note: no documents fell into this shard\n');
    return 0;
  }
  io.stderr(summary.failed > 0 ? 'chunkscope: no document could be chunked\n' : 'chunkscope: no documents found (see --include)\n');
  return 1;
}

/** A progress bar on a terminal (documents, MB/s, ETA); failure lines only otherwise. */
class ProgressReport {
  private readonly started = performance.now();
  private bar: { multi: import('cli-progress').MultiBar; bar: import('cli-progress').SingleBar } | null = null;
  private loading: Promise<void> | null = null;

  constructor(
    private readonly io: CorpusIo,
    private readonly tty: boolean,
  ) {}

  seconds(): number {
    return (performance.now() - this.started) / 1000;
  }

  update(p: CorpusProgress): void {
    if (!this.tty) return;
    const mbps = (p.bytes / 1e6 / Math.max(this.seconds(), 1e-3)).toFixed(1);
    if (this.bar) this.bar.bar.update(p.documents, { mbps, total: p.documentsTotal });
    // Without the bar (it failed to load), the run goes on with plain lines.
    else this.loading ??= this.start(p).catch(() => undefined);
  }

  private async start(first: CorpusProgress): Promise<void> {
    const { MultiBar, Presets } = await import('cli-progress');
    const multi = new MultiBar({ format: '{bar} {value}/{total} documents | {mbps} MB/s | ETA {eta_formatted}', hideCursor: true, clearOnComplete: true }, Presets.shades_classic);
    this.bar = { multi, bar: multi.create(first.documentsTotal, first.documents, { mbps: '0.0' }) };
  }

  line(text: string): void {
    if (this.bar) this.bar.multi.log(text + '\n');
    else this.io.stderr(text + '\n');
  }

  stop(): void {
    this.bar?.multi.stop();
    this.bar = null;
  }
}

async function runMerge(argv: string[], io: CorpusIo): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({ args: argv, allowPositionals: true, strict: true, options: { to: { type: 'string' }, embed: { type: 'boolean' }, embedder: { type: 'string' } } });
  } catch (err) {
    throw new CliError(parseArgsMessage(err));
  }
  const [dir, ...extra] = parsed.positionals;
  if (dir === undefined) throw new CliError('corpus merge needs the folder holding the shards\' parts');
  if (extra.length > 0) throw new CliError(`unexpected argument "${extra[0]}"`);
  const target = await openTarget(parsed.values.to, parsed.values.embed === true, parsed.values.embedder);
  try {
    const merged = await mergeShards(dir);
    io.stderr(`chunkscope: merged ${merged.shards} shards: ${merged.documents.toLocaleString('en-US')} documents, ${merged.chunks.toLocaleString('en-US')} chunks, ${merged.failed} failed → ${dir}\n`);
    if (target) {
      const { applyOutputFolder } = await import('../node/lancedb/index');
      reportLance(parsed.values.to!, await applyOutputFolder(dir, target.sink), io);
    }
    return 0;
  } catch (err) {
    if (err instanceof ManifestError || isLanceSinkError(err)) throw new CliError(err.message);
    throw err;
  } finally {
    await target?.sink.close();
  }
}
