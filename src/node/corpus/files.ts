/**
 * The files of a corpus output folder and how they are written: buffered synchronous writes to a temporary name,
 * fsync, then rename (atomic on one file system); copying one document's lines out of a chunks file by its byte
 * range, without holding the file; the stat cache.
 */
import { closeSync, fstatSync, fsyncSync, openSync, readFileSync, readSync, renameSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { shardSuffix } from './config';

export interface CorpusFiles {
  chunks: string;
  manifest: string;
  changes: string;
  /** Folder of the run in progress (journal and new chunks), removed when the run is committed. */
  work: string;
  /** Size, mtime and hash of each document last read (a cache: lets a re-run skip reading unchanged files). */
  statCache: string;
}

export function corpusFiles(outDir: string, shard: { index: number; count: number } | null): CorpusFiles {
  const part = shard ? `-${shardSuffix(shard.index, shard.count)}` : '';
  return {
    chunks: join(outDir, `chunks${part}.jsonl`),
    manifest: join(outDir, `manifest${part}.json`),
    changes: join(outDir, `changes${part}.json`),
    work: join(outDir, '.chunkscope-work', shard ? shardSuffix(shard.index, shard.count) : 'all'),
    statCache: join(outDir, `.chunkscope-stat${part}.json`),
  };
}

export const temporary = (path: string): string => `${path}.tmp`;

/** Buffered writes to one file descriptor (synchronous: the order of bytes on disk is the order of calls). */
export class FileWriter {
  private readonly fd: number;
  private buffer: string[] = [];
  private buffered = 0;
  written = 0;

  constructor(path: string, flags: 'w' | 'a' | 'r+' = 'w') {
    this.fd = openSync(path, flags);
  }

  write(text: string): void {
    this.buffer.push(text);
    this.buffered += text.length;
    if (this.buffered >= 1 << 20) this.flush();
  }

  /** Writes through now; returns the bytes written (for offsets). */
  writeNow(text: string): number {
    this.flush();
    const bytes = Buffer.from(text, 'utf8');
    writeSync(this.fd, bytes);
    this.written += bytes.length;
    return bytes.length;
  }

  writeBytes(bytes: Uint8Array): void {
    this.flush();
    writeSync(this.fd, bytes);
    this.written += bytes.length;
  }

  flush(): void {
    if (this.buffer.length === 0) return;
    const bytes = Buffer.from(this.buffer.join(''), 'utf8');
    this.buffer = [];
    this.buffered = 0;
    writeSync(this.fd, bytes);
    this.written += bytes.length;
  }

  close(sync = true): void {
    this.flush();
    if (sync) fsyncSync(this.fd);
    closeSync(this.fd);
  }
}

/** Write `path` atomically from pieces of text. */
export function writeAtomically(path: string, pieces: Iterable<string>): void {
  const out = new FileWriter(temporary(path));
  for (const piece of pieces) out.write(piece);
  out.close();
  renameSync(temporary(path), path);
}

/**
 * A chunks file written in document-id order, each document's lines at the offset its predecessors' chunkBytes add
 * up to: copies one document's bytes at a time (positioned reads, 4 MiB blocks), checking that they are its lines.
 */
export class ChunkRanges {
  private readonly ranges = new Map<string, { offset: number; length: number }>();
  private readonly fd: number;

  constructor(
    private readonly path: string,
    documents: Record<string, { chunkBytes: number }>,
  ) {
    let at = 0;
    for (const id of Object.keys(documents).sort(byId)) {
      this.ranges.set(id, { offset: at, length: documents[id]!.chunkBytes });
      at += documents[id]!.chunkBytes;
    }
    this.fd = openSync(path, 'r');
    const size = fstatSync(this.fd).size;
    if (size !== at) {
      closeSync(this.fd);
      throw new ChunksMismatchError(`${path} has ${size} bytes where its manifest says ${at}; delete the output folder and run again`);
    }
  }

  /** Where document `id`'s lines are. */
  rangeOf(id: string): { offset: number; length: number } {
    const range = this.ranges.get(id);
    if (!range) throw new ChunksMismatchError(`"${id}" is not in the manifest of ${this.path}`);
    return range;
  }

  /** Write document `id`'s lines to `out`. */
  copy(id: string, out: FileWriter): void {
    this.copyRange(id, this.rangeOf(id), out);
  }

  /** Write the bytes of `range` (the lines of `firstId` and the documents after it) to `out`. */
  copyRange(firstId: string, range: { offset: number; length: number }, out: FileWriter): void {
    const prefix = Buffer.from(`{"documentId":${JSON.stringify(firstId)},`);
    for (let at = 0; at < range.length; ) {
      const buffer = Buffer.alloc(Math.min(1 << 22, range.length - at));
      const read = readSync(this.fd, buffer, 0, buffer.length, range.offset + at);
      if (at === 0 && !buffer.subarray(0, prefix.length).equals(prefix)) throw new ChunksMismatchError(`${this.path} does not match its manifest at document "${firstId}"; delete the output folder and run again`);
      if (read === 0) throw new ChunksMismatchError(`${this.path} ended before document "${firstId}"`);
      out.writeBytes(read === buffer.length ? buffer : buffer.subarray(0, read));
      at += read;
    }
  }

  close(): void {
    closeSync(this.fd);
  }
}

export class ChunksMismatchError extends Error {
  override name = 'ChunksMismatchError';
}

/** Document ids in the one order every file uses (UTF-16 code units, as `<` compares). */
export const byId = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

/** Size and modification time of documents whose hash is known: an unchanged stat means an unchanged file. */
export type StatCache = Map<string, { size: number; mtimeMs: number; hash: string }>;

export function readStatCache(path: string): StatCache {
  try {
    const entries = JSON.parse(readFileSync(path, 'utf8')) as Record<string, [number, number, string]>;
    return new Map(Object.entries(entries).map(([id, [size, mtimeMs, hash]]) => [id, { size, mtimeMs, hash }]));
  } catch {
    return new Map(); // missing or damaged: every document is read and hashed
  }
}

export function* statCachePieces(cache: StatCache): Generator<string> {
  yield '{';
  let first = true;
  for (const [id, { size, mtimeMs, hash }] of cache) {
    yield `${first ? '' : ','}\n${JSON.stringify(id)}: ${JSON.stringify([size, mtimeMs, hash])}`;
    first = false;
  }
  yield '\n}\n';
}
