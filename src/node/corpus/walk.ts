/**
 * Finds a corpus's documents: files under each root directory (recursively, in name order), files given one by
 * one, or paths listed on standard input. By default only the extensions the page opens (IMPORTABLE_EXTENSIONS);
 * `include` globs replace that, `exclude` globs remove files and prune directories. Symbolic links are followed
 * only while they stay inside their root (a link out of the tree, or a loop, is left out).
 */
import { statSync } from 'node:fs';
import { opendir, realpath, stat } from 'node:fs/promises';
import { basename, relative, resolve, sep } from 'node:path';
import { IMPORTABLE_EXTENSIONS } from '../../import/index';

export interface DocumentRef {
  /** The document id: the path relative to its root with forward slashes, or the path as given for a file. */
  id: string;
  /** Absolute path to read. */
  path: string;
  /** Size in bytes and modification time when found (progress, the stat cache; the reader checks the real size). */
  size: number;
  mtimeMs: number;
}

export interface WalkOptions {
  include?: readonly string[];
  exclude?: readonly string[];
  /** Absolute folders never entered (the run's output folder). */
  skipDirs?: readonly string[];
}

export interface WalkProblem {
  path: string;
  reason: string;
}

/** Directories never entered: version control and installed packages. */
const SKIPPED_NAMES = new Set(['.git', '.hg', '.svn', 'node_modules']);

/**
 * A glob as a RegExp over a forward-slash path: `**` any folders, `*` and `?` within one name, `{a,b}` either.
 * A pattern without a slash matches a name at any depth (as .gitignore does).
 */
export function globMatcher(pattern: string): (path: string) => boolean {
  let out = '';
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i]!;
    if (c === '*' && pattern[i + 1] === '*') {
      const slash = pattern[i + 2] === '/';
      out += slash ? '(?:.*/)?' : '.*';
      i += slash ? 2 : 1;
    } else if (c === '*') out += '[^/]*';
    else if (c === '?') out += '[^/]';
    else if (c === '{') out += '(?:';
    else if (c === '}') out += ')';
    else if (c === ',' && out.includes('(?:')) out += '|';
    else out += c.replace(/[.+^$()|[\]\\]/g, '\\$&');
  }
  const re = new RegExp(`^${out}$`);
  if (pattern.includes('/')) return (path) => re.test(path);
  return (path) => re.test(path.slice(path.lastIndexOf('/') + 1));
}

const KNOWN = new Set(IMPORTABLE_EXTENSIONS);
const extensionOf = (name: string): string => {
  const dot = name.lastIndexOf('.');
  return dot > 0 ? name.slice(dot + 1).toLowerCase() : '';
};

class Filter {
  private readonly include: ((p: string) => boolean)[];
  private readonly exclude: ((p: string) => boolean)[];
  constructor(options: WalkOptions) {
    this.include = (options.include ?? []).map(globMatcher);
    this.exclude = (options.exclude ?? []).map(globMatcher);
  }
  excluded(id: string): boolean {
    return this.exclude.some((m) => m(id));
  }
  wanted(id: string): boolean {
    if (this.excluded(id)) return false;
    if (this.include.length > 0) return this.include.some((m) => m(id));
    return KNOWN.has(extensionOf(basename(id)));
  }
}

const toId = (path: string): string => path.split(sep).join('/');

/** Every document under the inputs, sorted by id; problems (unreadable folders, missing paths) are collected. */
export async function findDocuments(inputs: readonly string[], options: WalkOptions = {}): Promise<{ documents: DocumentRef[]; problems: WalkProblem[] }> {
  const filter = new Filter(options);
  const documents: DocumentRef[] = [];
  const problems: WalkProblem[] = [];
  const skip = new Set(await Promise.all((options.skipDirs ?? []).map((d) => realpath(d).catch(() => resolve(d)))));
  for (const input of inputs) {
    let info;
    try {
      info = await stat(input);
    } catch (err) {
      problems.push({ path: input, reason: describeFsError(err) });
      continue;
    }
    if (info.isDirectory()) await walkRoot(resolve(input), filter, skip, documents, problems);
    // A file named on the command line is taken whatever its extension (unless excluded).
    else if (!filter.excluded(toId(input))) documents.push({ id: toId(relativeOrAsGiven(input)), path: resolve(input), size: info.size, mtimeMs: info.mtimeMs });
  }
  documents.sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  for (let i = 1; i < documents.length; i++) {
    if (documents[i]!.id === documents[i - 1]!.id && documents[i]!.path !== documents[i - 1]!.path) {
      throw new DuplicateIdError(`two documents have the id "${documents[i]!.id}" (${documents[i - 1]!.path} and ${documents[i]!.path}); give one root folder`);
    }
  }
  return { documents: documents.filter((d, i) => i === 0 || d.id !== documents[i - 1]!.id), problems };
}

export class DuplicateIdError extends Error {
  override name = 'DuplicateIdError';
}

function relativeOrAsGiven(input: string): string {
  const rel = relative(process.cwd(), resolve(input));
  return rel.startsWith('..') || rel === '' ? input : rel;
}

async function walkRoot(root: string, filter: Filter, skip: Set<string>, out: DocumentRef[], problems: WalkProblem[]): Promise<void> {
  const realRoot = await realpath(root);
  const visited = new Set<string>([realRoot]);
  const inside = (real: string) => real === realRoot || real.startsWith(realRoot + sep);
  const walk = async (dir: string): Promise<void> => {
    let names: { name: string; kind: 'file' | 'dir' | 'link' | 'other' }[];
    try {
      names = [];
      for await (const entry of await opendir(dir)) {
        names.push({ name: entry.name, kind: entry.isFile() ? 'file' : entry.isDirectory() ? 'dir' : entry.isSymbolicLink() ? 'link' : 'other' });
      }
    } catch (err) {
      problems.push({ path: dir, reason: describeFsError(err) });
      return;
    }
    names.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    for (const { name, kind } of names) {
      const full = `${dir}${sep}${name}`;
      const id = toId(relative(root, full));
      let isDir = kind === 'dir';
      let isFile = kind === 'file';
      let size = 0;
      let mtimeMs = 0;
      if (kind === 'link') {
        // Followed only inside the root; each real folder once (no loops).
        const real = await realpath(full).catch(() => null);
        if (real === null || !inside(real)) continue;
        const info = await stat(real).catch(() => null);
        isDir = info?.isDirectory() ?? false;
        isFile = info?.isFile() ?? false;
        size = info?.size ?? 0;
        mtimeMs = info?.mtimeMs ?? 0;
        if (isDir && visited.has(real)) continue;
        if (isDir) visited.add(real);
      }
      if (isDir) {
        if (SKIPPED_NAMES.has(name) || skip.has(await realpath(full).catch(() => full)) || filter.excluded(id)) continue;
        await walk(full);
      } else if (isFile && filter.wanted(id)) {
        if (kind === 'file') {
          // Synchronous: 10,000 stats through the thread pool cost 3x more, the walk's main cost on a re-run.
          const info = statSync(full, { throwIfNoEntry: false });
          size = info?.size ?? 0;
          mtimeMs = info?.mtimeMs ?? 0;
        }
        out.push({ id, path: full, size, mtimeMs });
      }
    }
  };
  await walk(root);
}

function describeFsError(err: unknown): string {
  const code = (err as NodeJS.ErrnoException)?.code;
  if (code === 'ENOENT') return 'no such file or folder';
  if (code === 'EACCES' || code === 'EPERM') return 'permission denied';
  return `${code ?? 'error'}: ${String((err as Error)?.message ?? err).split('\n')[0]}`;
}
