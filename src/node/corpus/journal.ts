/**
 * The record of a run in progress, so a run killed at any moment resumes without redoing finished documents.
 * new.jsonl holds the chunk lines of the documents chunked so far; journal.jsonl one line per finished document
 * (its hash and the byte range of its lines), appended only after those lines are written. On resume the journal's
 * valid lines are kept and new.jsonl is cut back to the end of the last one, so no partial line survives. A run
 * whose files were written appends a commit line; a resumed run that finds it only finishes the renames.
 */
import { closeSync, existsSync, mkdirSync, openSync, readFileSync, readSync, rmdirSync, rmSync, truncateSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { StringDecoder } from 'node:string_decoder';
import { FileWriter } from './files';

export interface JournalEntry {
  id: string;
  hash: string;
  bytes: number;
  format: string;
  chunkIds: string[];
  offset: number;
  length: number;
}

interface Header {
  journal: 1;
  configHash: string;
  /** sha256 of the previous manifest this run builds on ('none' without one). */
  previous: string;
}

export class Journal {
  readonly done = new Map<string, JournalEntry>();
  /** The summary of a run that was committed but not cleaned up, when one is found. */
  committed: unknown = null;
  private chunks: FileWriter | undefined;
  private log: FileWriter | undefined;
  private chunkBytes = 0;
  private readFd: number | undefined;

  private constructor(readonly dir: string) {}

  static open(dir: string, header: Omit<Header, 'journal'>): Journal {
    const journal = new Journal(dir);
    journal.load({ journal: 1, ...header });
    return journal;
  }

  private get logPath(): string {
    return join(this.dir, 'journal.jsonl');
  }
  get chunksPath(): string {
    return join(this.dir, 'new.jsonl');
  }

  private load(header: Header): void {
    const expected = JSON.stringify(header);
    let kept = 0;
    if (existsSync(this.logPath) && existsSync(this.chunksPath)) {
      const text = readFileSync(this.logPath, 'utf8');
      const lines = text.slice(0, text.lastIndexOf('\n') + 1).split('\n');
      // A committed run wrote its files (maybe renamed some, so the previous manifest has changed): only finish it.
      const last = parse(lines[lines.length - 2] ?? '');
      if (last !== null && 'commit' in last) {
        this.committed = last.commit;
        return;
      }
      if (lines[0] === expected) {
        kept = Buffer.byteLength(lines[0]) + 1;
        for (const line of lines.slice(1, -1)) {
          const entry = parse(line);
          if (entry === null) break;
          if ('commit' in entry) break;
          this.done.set(entry.id, entry);
          this.chunkBytes = entry.offset + entry.length;
          kept += Buffer.byteLength(line) + 1;
        }
      }
    }
    if (kept === 0) {
      rmSync(this.dir, { recursive: true, force: true });
      mkdirSync(this.dir, { recursive: true });
      this.log = new FileWriter(this.logPath, 'w');
      this.log.writeNow(expected + '\n');
      this.chunks = new FileWriter(this.chunksPath, 'w');
      mkdirSync(this.spillDir);
      return;
    }
    // Drop a partial last journal line and any chunk lines written after the last finished document.
    truncateSync(this.logPath, kept);
    truncateSync(this.chunksPath, this.chunkBytes);
    this.log = new FileWriter(this.logPath, 'a');
    this.chunks = new FileWriter(this.chunksPath, 'a');
    mkdirSync(this.spillDir, { recursive: true });
  }

  /** Where large documents' lines are written by the threads before they are recorded. */
  get spillDir(): string {
    return join(this.dir, 'spill');
  }

  /** Record a chunked document whose lines are in `spill` (copied in blocks, then the file removed). */
  addSpilled(entry: Omit<JournalEntry, 'offset' | 'length'>, spill: string): JournalEntry {
    const offset = this.chunkBytes;
    const fd = openSync(spill, 'r');
    let length = 0;
    try {
      const buffer = Buffer.alloc(1 << 22);
      for (let read; (read = readSync(fd, buffer, 0, buffer.length, null)) > 0; length += read) this.chunks!.writeBytes(buffer.subarray(0, read));
    } finally {
      closeSync(fd);
    }
    return this.record(entry, offset, length, () => rmSync(spill, { force: true }));
  }

  /** Record a chunked document: its lines first, then its journal line. */
  add(entry: Omit<JournalEntry, 'offset' | 'length'>, lines: readonly string[]): JournalEntry {
    const offset = this.chunkBytes;
    let length = 0;
    for (const piece of lines) length += this.chunks!.writeNow(piece);
    return this.record(entry, offset, length);
  }

  private record(entry: Omit<JournalEntry, 'offset' | 'length'>, offset: number, length: number, after?: () => void): JournalEntry {
    this.chunkBytes += length;
    const full = { ...entry, offset, length };
    this.log!.writeNow(JSON.stringify(full) + '\n');
    this.done.set(entry.id, full);
    after?.();
    return full;
  }

  /** The bytes of a recorded document's lines, in blocks of at most 4 MiB. */
  *blocks(entry: JournalEntry): Generator<Buffer> {
    this.chunks?.flush();
    this.readFd ??= openSync(this.chunksPath, 'r');
    for (let at = 0; at < entry.length; ) {
      const buffer = Buffer.alloc(Math.min(1 << 22, entry.length - at));
      const read = readSync(this.readFd, buffer, 0, buffer.length, entry.offset + at);
      if (read === 0) throw new Error(`the journal's chunks file is shorter than its journal (${this.chunksPath})`);
      at += read;
      yield read === buffer.length ? buffer : buffer.subarray(0, read);
    }
  }

  /** A recorded document's lines (without newlines). */
  *lines(entry: JournalEntry): Generator<string> {
    const decoder = new StringDecoder('utf8');
    let rest = '';
    for (const block of this.blocks(entry)) {
      const text = rest + decoder.write(block);
      const lines = text.split('\n');
      rest = lines.pop()!;
      yield* lines;
    }
    if (rest !== '') yield rest;
  }

  commit(summary: unknown): void {
    this.log!.writeNow(JSON.stringify({ commit: summary }) + '\n');
  }

  close(): void {
    if (this.readFd !== undefined) closeSync(this.readFd);
    this.readFd = undefined;
    this.chunks?.close(false);
    this.log?.close(false);
    this.chunks = this.log = undefined;
  }

  remove(): void {
    rmSync(join(this.dir, 'journal.jsonl'), { force: true });
    rmSync(this.dir, { recursive: true, force: true });
    // The folder of all runs' journals, when this was the last one.
    try {
      rmdirSync(dirname(this.dir));
    } catch {
      // another shard's run is in progress there
    }
  }
}

function parse(line: string): JournalEntry | { commit: unknown } | null {
  try {
    const value = JSON.parse(line) as JournalEntry | { commit: unknown };
    return typeof value === 'object' && value !== null ? value : null;
  } catch {
    return null;
  }
}
