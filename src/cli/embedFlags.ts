import { existsSync, statSync } from 'node:fs';
import { basename, resolve } from 'node:path';
import type { ParseArgsConfig } from 'node:util';
import type { ChunkOptions } from '../core/types';
import { CliError, parseWholeNumber } from './input';

/**
 * --embedder <folder> and --embed-workers N (docs/hub-models.md). A model folder on disk is given to the engine as
 * `local/<name>` (the option table takes ids, never paths) and loaded from its path; --embed-workers caps the worker
 * threads a hub model or folder embeds on (1 = this thread). The built-in model always runs in this thread.
 */

export const EMBED_PARSE_OPTIONS: NonNullable<ParseArgsConfig['options']> = { 'embed-workers': { type: 'string' } };
export const EMBED_FLAG_ROW = {
  flag: '--embed-workers <n>',
  help: 'hub models and model folders: worker threads that embed at most (default: the cores; 1 = in this thread); the built-in model always runs in this thread',
};

const MAX_EMBED_WORKERS = 64;

export interface EmbedFlags {
  /** The model folder's path when --embedder named one (then options.embedder is `local/<name>`). */
  folder?: string;
  workers?: number;
}

/** Reads the two flags and, for a folder, rewrites options.embedder; one-line CliErrors for bad values. */
export function takeEmbedFlags(values: Record<string, unknown>, options: ChunkOptions): EmbedFlags {
  const flags: EmbedFlags = {};
  const raw = values['embed-workers'];
  if (typeof raw === 'string') {
    const n = parseWholeNumber('--embed-workers', raw);
    if (n < 1 || n > MAX_EMBED_WORKERS) throw new CliError(`--embed-workers must be between 1 and ${MAX_EMBED_WORKERS} (got ${n})`);
    flags.workers = n;
  }
  const embedder = options.embedder;
  if (typeof embedder === 'string' && isFolderPath(embedder)) {
    if (!existsSync(embedder) || !statSync(embedder).isDirectory()) {
      throw new CliError(`--embedder ${embedder}: no such model folder (a folder with config.json, tokenizer.json and onnx/model_quantized.onnx)`);
    }
    flags.folder = resolve(embedder);
    options.embedder = `local/${basename(flags.folder).replace(/[^\w.-]+/g, '_').replace(/^[.-]+/, '') || 'model'}`;
  }
  return flags;
}

/** A path rather than an id: ./x, ../x, /x, C:\x, or an owner/name that exists here as a folder. */
function isFolderPath(value: string): boolean {
  if (value === 'builtin' || value.startsWith('local/')) return false;
  return /^(\.{1,2}[\\/]|\/|[A-Za-z]:[\\/])/.test(value) || value === '.' || (existsSync(value) && statSync(value).isDirectory());
}
