/**
 * The files of a corpus output folder and how they are written: buffered synchronous writes to a temporary name,
 * fsync, then rename (atomic on one file system); a reader of chunks.jsonl that copies one document's lines at a
 * time, in document-id order, without holding the file.
 */
import { closeSync, createReadStream, fsyncSync, openSync, renameSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { shardSuffix } from './config';

export interface CorpusFiles {
  chunks: string;
  manifest: string;
  changes: string;
  /** Folder of the run in progress (journal and new chunks), removed when the run is committed. */
  work: string;
}

export function corpusFiles(outDir: string, shard: { index: number; count: number } | null): CorpusFiles {
  const part = shard ? `-${shardSuffix(shard.index, shard.count)}` : '';
  return {
    chunks: join(outDir, `chunks${part}.jsonl`),
    manifest: join(outDir, `manifest${part}.json`),
    changes: join(outDir, `changes${part}.json`),
    work: join(outDir, '.chunkscope-work', shard ? shardSuffix(shard.index, shard.count) : 'all'),
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
 * Reads a chunks.jsonl written in document-id order, given each document's chunk count, and hands out one
 * document's lines at a time; documents must be asked for in the same order (others are skipped).
 */
export class ChunkLineReader {
  private readonly lines: AsyncIterator<string>;
  private at = 0;

  constructor(
    path: string,
    private readonly documents: readonly { id: string; chunkCount: number }[],
  ) {
    this.lines = createInterface({ input: createReadStream(path, { encoding: 'utf8' }), crlfDelay: Infinity })[Symbol.asyncIterator]();
  }

  /** The lines of document `id` (each without its newline), or throws when the file does not match its manifest. */
  async *linesOf(id: string): AsyncGenerator<string> {
    while (this.at < this.documents.length && this.documents[this.at]!.id < id) {
      for (let i = 0; i < this.documents[this.at]!.chunkCount; i++) await this.next(this.documents[this.at]!.id);
      this.at++;
    }
    const doc = this.documents[this.at];
    if (!doc || doc.id !== id) throw new Error(`"${id}" is not in the previous manifest`);
    this.at++;
    for (let i = 0; i < doc.chunkCount; i++) yield await this.next(id);
  }

  private async next(id: string): Promise<string> {
    const { value, done } = await this.lines.next();
    const prefix = `{"documentId":${JSON.stringify(id)},`;
    if (done || !value.startsWith(prefix)) throw new Error(`the chunks file does not match its manifest at document "${id}"; delete the output folder and run again`);
    return value;
  }

  async close(): Promise<void> {
    await this.lines.return?.();
  }
}
