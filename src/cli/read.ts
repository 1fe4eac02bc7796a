/**
 * Bounded input for the CLI (docs/input.md): files, standard input, devices and FIFOs are read as a stream, block
 * by block, up to a cap (--max-bytes). A text file's blocks go through the shared sniffer (src/import/decode.ts) as
 * they arrive, so `/dev/zero` or `/dev/urandom` is refused at its first block instead of filling memory, and an
 * endless stream stops at the cap. Every file-system error is one sentence.
 */
import { open, type FileHandle } from 'node:fs/promises';
import { createTextSniffer, DecodeError, decodesAsText, DEFAULT_MAX_BYTES, formatBytes } from '../import/index';

export { DEFAULT_MAX_BYTES, formatBytes };
import { CliError } from './input';

/**
 * The highest --max-bytes: V8's longest string is about 512 Mi UTF-16 units (2^29 - 24), so a larger text file
 * could never be decoded; 512 MiB of UTF-8 is at most that many units.
 */
export const MAX_MAX_BYTES = 512 * 1024 * 1024 - 64;
const BLOCK = 1024 * 1024;

const UNITS: Record<string, number> = { '': 1, b: 1, k: 1e3, kb: 1e3, kib: 1024, m: 1e6, mb: 1e6, mib: 1024 ** 2, g: 1e9, gb: 1e9, gib: 1024 ** 3 };

/** `--max-bytes 200MiB`, `100MB`, `5000000`: a whole number of bytes, with an optional unit. */
export function parseMaxBytes(raw: string): number {
  const m = /^\s*(\d+(?:\.\d+)?)\s*([a-z]*)\s*$/i.exec(raw);
  const unit = m ? UNITS[m[2]!.toLowerCase()] : undefined;
  if (!m || unit === undefined) throw new CliError(`--max-bytes must be a size such as 100000000, 100MB or 128MiB (got "${raw}")`);
  const bytes = Math.floor(Number(m[1]) * unit);
  if (bytes < 1) throw new CliError(`--max-bytes must be at least 1 byte (got "${raw}")`);
  if (bytes > MAX_MAX_BYTES) throw new CliError(`--max-bytes can be at most 512 MiB, the longest text JavaScript can hold (got "${raw}")`);
  return bytes;
}

const limitHint = (max: number) => `the limit is ${formatBytes(max)} (raise it with --max-bytes)`;

/** What a file-system error code means, as the end of `cannot read "x": …`. */
const FS_REASONS: Record<string, string> = {
  ENOENT: 'no such file',
  EISDIR: 'it is a directory',
  ENOTDIR: 'a part of the path is not a directory',
  EACCES: 'permission denied',
  EPERM: 'the operation is not permitted',
  ELOOP: 'too many symbolic links (a link loop?)',
  ENAMETOOLONG: 'the path is too long',
  EMFILE: 'too many open files',
  ENFILE: 'too many open files in the system',
  ENXIO: 'no such device (a socket, or a FIFO with nothing behind it)',
  ENODEV: 'no such device',
  EIO: 'an input/output error (a failing disk or a closed terminal?)',
  EAGAIN: 'it is not ready to be read (a non-blocking stream)',
  EBUSY: 'it is busy (in use by another program)',
  EINVAL: 'it cannot be read as a file',
  ETIMEDOUT: 'the read timed out (a network file system?)',
  ESTALE: 'a stale network file handle',
  ERR_FS_FILE_TOO_LARGE: 'it is larger than 2 GiB, more than Node can read at once',
};

/** Any error from reading `name` as one CliError sentence. */
export function readError(name: string, err: unknown): CliError {
  if (err instanceof CliError) return err;
  const code = (err as NodeJS.ErrnoException)?.code;
  const reason = code && Object.hasOwn(FS_REASONS, code) ? FS_REASONS[code] : `${code ?? 'error'}: ${String((err as Error)?.message ?? err).split('\n')[0]}`;
  return new CliError(`cannot read "${name}": ${reason}`);
}

interface ReadOptions {
  maxBytes: number;
  /** Check the blocks as text (NULs, invalid UTF-8) while reading; off for PDF and DOCX. Decided from the first block when absent. */
  text?: boolean;
}

/**
 * Collects blocks up to the cap, sniffing text as it goes. `name` is the path or "standard input". Returns the
 * bytes as a plain Uint8Array (pdfjs refuses Node Buffers).
 */
class BoundedCollector {
  private readonly blocks: Uint8Array[] = [];
  private total = 0;
  private sniffer: ReturnType<typeof createTextSniffer> | null = null;
  private decided = false;

  constructor(
    private readonly name: string,
    private readonly options: ReadOptions,
  ) {}

  add(block: Uint8Array): void {
    if (!this.decided) {
      this.decided = true;
      if (this.options.text ?? decodesAsText(this.name, block)) this.sniffer = createTextSniffer();
    }
    this.total += block.length;
    if (this.total > this.options.maxBytes) {
      throw new CliError(`"${this.name}" is larger than the limit, ${formatBytes(this.options.maxBytes)}; stopped reading there (raise it with --max-bytes)`);
    }
    this.sniff(() => this.sniffer?.push(block));
    this.blocks.push(block);
  }

  finish(): Uint8Array {
    this.sniff(() => this.sniffer?.end());
    if (this.blocks.length === 1) return this.blocks[0]!;
    const out = new Uint8Array(this.total);
    let at = 0;
    for (const b of this.blocks) {
      out.set(b, at);
      at += b.length;
    }
    this.blocks.length = 0;
    return out;
  }

  private sniff(run: () => void): void {
    try {
      run();
    } catch (err) {
      if (err instanceof DecodeError) throw new CliError(`"${this.name}" ${err.reason}`);
      throw err;
    }
  }
}

/** Read a file, device or FIFO with the cap; a regular file over the cap is refused from its size, unread. */
export async function readFileBounded(path: string, options: ReadOptions): Promise<Uint8Array> {
  let handle: FileHandle | undefined;
  try {
    handle = await open(path, 'r');
    const info = await handle.stat();
    if (info.isDirectory()) throw new CliError(`cannot read "${path}": it is a directory`);
    if (info.isFile() && info.size > options.maxBytes) throw new CliError(`"${path}" is ${formatBytes(info.size)}; ${limitHint(options.maxBytes)}`);
    const collector = new BoundedCollector(path, options);
    // A regular file is read in one block of its size (+ 1, to see growth); devices and FIFOs in 1 MiB blocks. A
    // fresh buffer per block: the collector keeps them.
    let want = Math.min(options.maxBytes + 1, info.isFile() ? Math.max(info.size + 1, BLOCK) : BLOCK);
    for (;; want = Math.min(BLOCK, options.maxBytes + 1)) {
      const buffer = new Uint8Array(want);
      const { bytesRead } = await handle.read(buffer, 0, want, null);
      if (bytesRead === 0) break;
      collector.add(buffer.subarray(0, bytesRead));
    }
    return collector.finish();
  } catch (err) {
    throw readError(path, err);
  } finally {
    await handle?.close().catch(() => undefined);
  }
}

/** Read standard input with the cap; stops (and lets go of the stream) at the first bad block or at the cap. */
export async function readStreamBounded(source: AsyncIterable<Uint8Array> | Promise<Uint8Array>, name: string, options: ReadOptions): Promise<Uint8Array> {
  const collector = new BoundedCollector(name, options);
  try {
    if (Symbol.asyncIterator in source) {
      for await (const block of source) collector.add(block instanceof Uint8Array ? new Uint8Array(block.buffer, block.byteOffset, block.byteLength) : block);
    } else collector.add(await source);
    return collector.finish();
  } catch (err) {
    throw readError(name, err);
  }
}
