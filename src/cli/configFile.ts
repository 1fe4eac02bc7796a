/**
 * `--config FILE` (chunk, eval, sweep, corpus): the chunking options of a configuration the page or a run wrote,
 * under the flags given (a flag overrides the file). Read:
 *  - a share link (the page's "Copy link", an http(s) URL) or share file (`*.chunkscope.json`, offered for a
 *    document too large for a link): its configuration query, read as the page reads a link (src/state/urlCodec.ts) and turned into options as the page does (src/state/chunkOptions.ts), so
 *    the CLI chunks as the page did;
 *  - a JSON or JSONL export of chunks (the page's Export JSON / JSONL, `--format json`): the strategy, compat mode
 *    and unit its chunks name (all a chunk export carries; src/core/export/reimport.ts);
 *  - a corpus manifest.json (its `configuration.options`), or an object of options (`{"options": {...}}` or the
 *    options themselves), keys as the library (camelCase) or the flags (kebab-case) spell them.
 * A file that cannot be read or is none of these is one CliError line naming it (exit 2).
 */
import { readFileSync } from 'node:fs';
import { parseChunkExport } from '../core/export/reimport';
import { ENGINE_OPTIONS } from '../core/optionTable';
import { STRATEGY_NAMES } from '../core/strategies';
import type { ChunkOptions } from '../core/types';
import { UNIT_NAMES } from '../core/units';
import { toChunkOptions } from '../state/chunkOptions';
import { DEFAULT_CONFIG, type Config } from '../state/configSlice';
import { parseShareFile, ShareLinkError } from '../state/shareLink';
import { decodeQuery } from '../state/urlCodec';
import { CliError } from './input';

/** The largest configuration file read (a share file carries its document: the page's cap is 64 MiB of text). */
const MAX_CONFIG_BYTES = 256 * 1024 * 1024;

/** The chunking options `path` holds (see the module comment). */
export function optionsFromConfigFile(path: string): ChunkOptions {
  const name = `--config "${path}"`;
  // The page's "Copy link" (its query is the configuration; the fragment, the document, is not needed).
  if (/^https?:\/\//i.test(path)) return queryOptions(new URL(path).search, name);
  let text: string;
  try {
    const bytes = readFileSync(path);
    if (bytes.length > MAX_CONFIG_BYTES) throw new CliError(`${name} is larger than 256 MiB; give a share file, an export or an options object`);
    text = bytes.toString('utf8');
  } catch (err) {
    if (err instanceof CliError) throw err;
    throw new CliError(`${name} cannot be read (${(err as NodeJS.ErrnoException).code ?? (err as Error).message})`);
  }
  const fromShare = shareFileOptions(text, name);
  if (fromShare) return fromShare;
  const fromExport = chunkExportOptions(text);
  if (fromExport) return fromExport;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new CliError(`${name} is not JSON: give a share file, a JSON export of chunks, a manifest.json or an options object`);
  }
  return optionsObject(value, name);
}

function shareFileOptions(text: string, name: string): ChunkOptions | null {
  try {
    const file = parseShareFile(text);
    if (!file) return null;
    return queryOptions(file.query, name);
  } catch (err) {
    if (err instanceof ShareLinkError) throw new CliError(`${name}: ${err.message}`);
    throw err;
  }
}

/** A link's configuration query as the page reads it, then as the page's options (less the document's facts). */
function queryOptions(query: string, name: string): ChunkOptions {
  const { values, malformed } = decodeQuery(query, { strategies: STRATEGY_NAMES, units: UNIT_NAMES });
  if (malformed.length > 0) throw new CliError(`${name}: its configuration has a malformed ${malformed[0]}`);
  return toChunkOptions({ ...DEFAULT_CONFIG, ...values } as Config);
}

function chunkExportOptions(text: string): ChunkOptions | null {
  try {
    return parseChunkExport(text)?.options ?? null;
  } catch {
    return null; // an export too large to rebuild still may name its options; but this is no options object either
  }
}

const BY_KEY = new Map<string, string>(ENGINE_OPTIONS.flatMap((spec) => [[spec.name, spec.name] as [string, string], [spec.flag, spec.name] as [string, string]]));

/** `{"options": {...}}`, a manifest's `configuration.options`, or the options themselves; unknown keys refused. */
function optionsObject(value: unknown, name: string): ChunkOptions {
  const record = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
  if (!record(value)) throw new CliError(`${name} holds no options object: give a share file, a JSON export of chunks, a manifest.json or {"options": {...}}`);
  const configuration = value.configuration;
  const options = record(value.options) ? value.options : record(configuration) && record(configuration.options) ? configuration.options : value;
  const out: Record<string, unknown> = {};
  for (const [key, v] of Object.entries(options)) {
    const option = BY_KEY.get(key);
    if (!option) throw new CliError(`${name}: unknown option "${key}" (the options are the flags of chunkscope chunk --help)`);
    if (v !== null) out[option] = v;
  }
  return out as ChunkOptions;
}
