/**
 * One document of a corpus run, in a worker thread (or inline with --jobs 1): read it within the byte limit, hash
 * it, and when its hash is not the known one, import it (text, markdown, HTML, source, PDF, DOCX: the CLI's
 * readers) and chunk it into chunks.jsonl lines. A document that cannot be read or chunked is one reason line.
 */
import { chunk, getStrategy, validateOptions, type ChunkHooks } from '../../core/index';
import type { Chunk, ChunkOptions } from '../../core/types';
import { importInput } from '../../cli/input';
import { readFileBounded } from '../../cli/read';
import type { Embedder } from '../../embed/types';
import { nodeLoadWasm } from '../loadWasm';
import { join } from 'node:path';
import type { ImportedDocument } from '../../import/index';
import { corpusRecords, sha256, type CorpusLlm } from './config';
import { FileWriter } from './files';

export interface DocumentTask {
  id: string;
  path: string;
  /** The hash a previous run (or the interrupted one) recorded: equal means nothing to do. */
  knownHash: string | null;
  options: ChunkOptions;
  configHash: string;
  maxBytes: number;
  dropPageFurniture: boolean;
  /** A folder where a large document's lines are written as they are made instead of returned (bounded memory). */
  spillDir?: string;
  /** Text length from which lines spill (default 16 Mi characters; tests use less). */
  spillAboveChars?: number;
  /** An LLM feature over each document's chunks, through the answer cache. */
  llm?: CorpusLlm | null;
}

/** A document's LLM requests: all, answered from the cache, sent. */
export interface DocumentLlmCounts {
  requests: number;
  cached: number;
  sent: number;
}

export type DocumentResult =
  | { kind: 'unchanged'; id: string; hash: string; bytes: number }
  /**
   * `lines`: the chunks.jsonl lines in pieces of whole lines (a 200 MB document's lines exceed V8's longest string),
   * or, for a large document with a spill folder, `spill`: the file holding them.
   */
  | { kind: 'chunked'; id: string; hash: string; bytes: number; format: string; lines: string[]; spill?: string; chunkIds: string[]; notes: string[]; llm?: DocumentLlmCounts }
  | { kind: 'failed'; id: string; reason: string };

/** Embedders for semantic chunking, one per model per thread, loaded on first use. */
const embedders = new Map<string, Promise<Embedder>>();

async function hooksFor(options: ChunkOptions, notes: string[]): Promise<ChunkHooks> {
  const hooks: ChunkHooks = { onNote: (message) => notes.push(message), loadWasm: nodeLoadWasm };
  const resolved = validateOptions(options);
  if (!getStrategy(resolved.strategy).needsEmbeddings) return hooks;
  const model = resolved.embedder ?? 'builtin';
  let embedder = embedders.get(model);
  if (!embedder) {
    embedder = import('../../embed/index').then(({ createEmbedder }) => createEmbedder({ model, allowRemote: model !== 'builtin' }));
    embedders.set(model, embedder);
  }
  const loaded = await embedder;
  hooks.embed = (texts) => loaded.embed(texts);
  return hooks;
}

/** Documents whose text is longer than this many characters spill their lines to a file when they can. */
const SPILL_CHARS = 1 << 24;

export async function processDocument(task: DocumentTask): Promise<DocumentResult> {
  const { id } = task;
  try {
    const read = await readAndImport(task);
    if (read.kind === 'unchanged') return read;
    const { hash, bytes, imported } = read;
    const notes = [...imported.notes];
    const options: ChunkOptions = { ...task.options, path: id, documentId: id };
    if (imported.pageStarts) options.pageStarts = imported.pageStarts;
    const hooks = await hooksFor(options, notes);
    const { chunks, llm } = task.llm ? await chunkWithLlm(imported.text, options, task.llm, hooks) : { chunks: await chunk(imported.text, options, hooks), llm: undefined };
    const base = { kind: 'chunked' as const, id, hash, bytes, format: imported.format, notes, ...(llm ? { llm } : {}) };
    if (task.spillDir === undefined || imported.text.length < (task.spillAboveChars ?? SPILL_CHARS)) return { ...base, ...recordLines(id, task.configHash, chunks) };
    // Written piece by piece as made: the lines of a 200 MB document would take more memory than its chunks.
    const spill = join(task.spillDir, `${sha256(id)}.jsonl`);
    const out = new FileWriter(spill);
    try {
      const { chunkIds } = recordLines(id, task.configHash, chunks, (piece) => out.writeNow(piece));
      return { ...base, lines: [], spill, chunkIds };
    } finally {
      out.close(false);
    }
  } catch (err) {
    const message = err instanceof Error ? err.message : String(err);
    return { kind: 'failed', id, reason: message.split('\n')[0]!.replace(/^“[^”]*” |^"[^"]*" /, '') };
  }
}

/**
 * The chunks with the LLM feature applied (src/node/llm.ts, loaded only for such runs). Any failure fails the
 * document (LlmStrictError's one line): its chunks are not kept without their LLM part, and the next run retries it.
 */
async function chunkWithLlm(text: string, options: ChunkOptions, llm: CorpusLlm, hooks: ChunkHooks): Promise<{ chunks: Chunk[]; llm: DocumentLlmCounts }> {
  const { runLlm } = await import('../llm');
  const { cacheDir, timeoutMs, ...rest } = llm;
  const { chunks, report } = await runLlm(text, options, { ...rest, cache: cacheDir ?? undefined, policy: timeoutMs === undefined ? {} : { timeoutMs }, strict: true }, hooks);
  return { chunks, llm: { requests: report.requests, cached: report.cached, sent: report.sent } };
}

/** Read, hash and import; the file's bytes are let go here (a large document's text is what chunking needs). */
async function readAndImport(task: DocumentTask): Promise<DocumentResult & { kind: 'unchanged' } | { kind: 'read'; hash: string; bytes: number; imported: ImportedDocument }> {
  const bytes = await readFileBounded(task.path, { maxBytes: task.maxBytes });
  const hash = sha256(bytes);
  if (hash === task.knownHash) return { kind: 'unchanged', id: task.id, hash, bytes: bytes.length };
  const imported = await importInput(bytes, task.id, { dropPageFurniture: task.dropPageFurniture });
  return { kind: 'read', hash, bytes: bytes.length, imported };
}

const PIECE = 1 << 22;

/** The chunks as chunks.jsonl lines (config.ts corpusRecords), in pieces of whole lines or emitted as made. */
export function recordLines(documentId: string, configHash: string, chunks: readonly Chunk[], emit?: (piece: string) => void): { lines: string[]; chunkIds: string[] } {
  const chunkIds: string[] = [];
  const lines: string[] = [];
  let piece = '';
  for (const record of corpusRecords(documentId, configHash, chunks)) {
    chunkIds.push(record.chunkId);
    piece += JSON.stringify(record) + '\n';
    if (piece.length >= PIECE) {
      if (emit) emit(piece);
      else lines.push(piece);
      piece = '';
    }
  }
  if (piece !== '' && emit) emit(piece);
  else if (piece !== '') lines.push(piece);
  return { lines, chunkIds };
}
