/**
 * How much a document may be, for every place that reads one (docs/input.md): the CLI's default cap (--max-bytes
 * raises it) and the page's cap on an opened or dropped file, which has no flag. One figure, one way to say it.
 */

/** The default cap: above the 50 MiB documents the CLI is measured on, far below what exhausts memory. */
export const DEFAULT_MAX_BYTES = 64 * 1024 * 1024;

/** The page reads a file whole into memory (and hands it to a worker): it refuses larger ones before reading. */
export const PAGE_MAX_FILE_BYTES = DEFAULT_MAX_BYTES;

/** 3.1 GiB, 64 MiB, 812 bytes: binary units, one decimal where it says something. */
export function formatBytes(n: number): string {
  if (n < 1024) return `${n} byte${n === 1 ? '' : 's'}`;
  const units = ['KiB', 'MiB', 'GiB', 'TiB'];
  let v = n / 1024;
  let i = 0;
  while (v >= 1024 && i < units.length - 1) {
    v /= 1024;
    i++;
  }
  return `${Number.isInteger(v) ? v : v.toFixed(1)} ${units[i]}`;
}

/** The longest paste the page takes, in UTF-16 characters (a pasted string is already in memory: this keeps the
 * worker's copy, the editor and the paint from what the page cannot hold). */
export const PAGE_MAX_PASTE_CHARS = DEFAULT_MAX_BYTES;

/** The page's one line for a paste over its cap, or null when it fits. */
export function pasteRefusal(length: number): string | null {
  if (length <= PAGE_MAX_PASTE_CHARS) return null;
  const millions = (n: number) => `${(n / 2 ** 20).toFixed(1).replace(/\.0$/, '')} Mi`;
  return `The pasted text is ${millions(length)} characters; the page takes pastes up to ${millions(PAGE_MAX_PASTE_CHARS)} (the chunkscope CLI reads larger files). Nothing was pasted.`;
}

/** The page's one line for a file over its cap (nothing of it is read). */
export function fileTooLargeMessage(name: string, size: number): string {
  return `“${name}” is ${formatBytes(size)}; the page opens files up to ${formatBytes(PAGE_MAX_FILE_BYTES)} (the chunkscope CLI reads larger ones with --max-bytes). The current document is unchanged.`;
}
