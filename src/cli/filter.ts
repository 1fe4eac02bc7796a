/**
 * The JSONL filter mode for dataflow engines (docs/distributed.md): `chunkscope chunk - --input jsonl --format jsonl`
 * reads one document per line, `{"id", "text", "path"?, "metadata"?}`, and writes one chunk per line (a
 * CorpusChunkRecord, src/node/corpus/record.ts), so Spark's RDD.pipe, Ray Data and Dask bags run it as is.
 * Streaming: each document's chunks are written as soon as its line has arrived (standard output's back-pressure
 * respected), and memory holds one document. A bad line is one stderr line with its number; the stream goes on.
 */
import { parseArgs } from 'node:util';
import { getStrategy, validateOptions, type ChunkHooks } from '../core/index';
import type { ChunkOptions } from '../core/types';
import type { Embedder } from '../embed/types';
import { chunk } from '../node/index';
import { joinNegativeValues, optionsFromFlags, parseArgsMessage, parseArgsOptions, takeSwitchValues } from './flags';
import { readLines } from './filterLines';
import { corpusRecords, textConfigHash } from '../node/corpus/config';
import { CliError } from './input';
import { DEFAULT_MAX_BYTES, parseMaxBytes } from './read';
import { refuseHugeRuns } from './main';

export interface FilterIo {
  stdout: (s: string) => unknown;
  stderr: (s: string) => void;
  readStdin: () => AsyncIterable<Uint8Array> | Promise<Uint8Array>;
}

/** One input line's document. */
interface InputDocument {
  id: string;
  text: string;
  path?: string;
  metadata: Record<string, unknown>;
}

/** Runs `chunk - --input jsonl ...` (argv without the `chunk` command); returns the exit code. */
export async function runFilter(argv: string[], io: FilterIo): Promise<number> {
  const { options, maxBytes } = parseFilterArgs(argv);
  const resolved = validateOptions(options); // bad options fail before any line is read or a model loads
  const configHash = textConfigHash(options);
  const hooks: ChunkHooks = { onNote: () => {} };
  let embedder: Embedder | undefined;
  if (getStrategy(resolved.strategy).needsEmbeddings) {
    const { createEmbedder } = await import('../embed/index');
    const model = resolved.embedder ?? 'builtin';
    embedder = await createEmbedder({ model, allowRemote: model !== 'builtin' });
    const loaded = embedder;
    hooks.embed = (texts) => loaded.embed(texts);
  }
  let done = 0;
  let failed = 0;
  try {
    for await (const line of readLines(io.readStdin(), maxBytes)) {
      if ('problem' in line) {
        failed++;
        io.stderr(`chunkscope: line ${line.number}: ${line.problem}; skipped\n`);
        continue;
      }
      if (line.text.trim() === '') continue;
      try {
        const document = parseDocument(line.text);
        const documentOptions: ChunkOptions = { ...options, documentId: document.id, ...(document.path === undefined ? {} : { path: document.path }) };
        refuseHugeRuns(document.text, validateOptions(documentOptions));
        const chunks = await chunk(document.text, documentOptions, hooks);
        const extra = document.path === undefined ? document.metadata : { ...document.metadata, path: document.path };
        let out = '';
        for (const record of corpusRecords(document.id, configHash, chunks, extra)) out += JSON.stringify(record) + '\n';
        if (out !== '') await io.stdout(out);
        done++;
      } catch (err) {
        failed++;
        const message = err instanceof Error ? err.message : String(err);
        io.stderr(`chunkscope: line ${line.number}: ${message.split('\n')[0]}; skipped\n`);
      }
    }
  } finally {
    await embedder?.dispose();
  }
  // A dataflow engine fails the whole task on a non-zero exit: only when no line at all could be chunked.
  return failed > 0 && done === 0 ? 1 : 0;
}

function parseFilterArgs(argv: string[]): { options: ChunkOptions; maxBytes: number } {
  const switches = takeSwitchValues(argv);
  const config: ReturnType<typeof parseArgsOptions> = { ...parseArgsOptions(), input: { type: 'string' } };
  let parsed;
  try {
    parsed = parseArgs({ args: joinNegativeValues(switches.rest, config), allowPositionals: true, strict: true, options: config });
  } catch (err) {
    throw new CliError(parseArgsMessage(err));
  }
  const values = parsed.values as Record<string, unknown>;
  const positionals = parsed.positionals;
  if (values.input !== 'jsonl') throw new CliError(`--input takes jsonl (one document per line; got "${String(values.input)}")`);
  if (positionals.length !== 1 || positionals[0] !== '-') throw new CliError('--input jsonl reads standard input: give - as the input, nothing else');
  if (values.format !== undefined && values.format !== 'jsonl') throw new CliError(`--input jsonl writes --format jsonl only (got "${String(values.format)}")`);
  if (Object.keys(values).some((k) => (k.startsWith('llm') || k === 'dry-run') && values[k] !== undefined)) {
    throw new CliError('--llm is not available with --input jsonl yet; run `chunkscope corpus` for LLM features');
  }
  const maxBytes = values['max-bytes'] === undefined ? DEFAULT_MAX_BYTES : parseMaxBytes(values['max-bytes'] as string);
  return { options: optionsFromFlags(values, switches.values), maxBytes };
}

/** A line's document, or an Error whose message says what is wrong with the line. */
function parseDocument(line: string): InputDocument {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    throw new Error('not JSON (expected {"id": ..., "text": ...})');
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) throw new Error('not a JSON object (expected {"id": ..., "text": ...})');
  const { id, text, path, metadata } = value as Record<string, unknown>;
  if (typeof id !== 'string' && !(typeof id === 'number' && Number.isFinite(id))) throw new Error('no "id" (a string or a number)');
  if (typeof text !== 'string') throw new Error('no "text" (a string)');
  if (path !== undefined && path !== null && typeof path !== 'string') throw new Error('"path" must be a string');
  if (metadata !== undefined && metadata !== null && (typeof metadata !== 'object' || Array.isArray(metadata))) throw new Error('"metadata" must be an object');
  return {
    id: String(id),
    text,
    ...(typeof path === 'string' ? { path } : {}),
    metadata: (metadata ?? {}) as Record<string, unknown>,
  };
}
