import type { ChunkOptions } from '../core/types';
import type { ChunkWorkerResult } from '../worker/protocol';

/**
 * The first sample's chunks, computed at build time (vite.config.ts, `firstChunks()`, with the worker's own code:
 * src/worker/chunkAhead.ts), so a first visit paints them without waiting for the chunk worker (docs/first-visit.md).
 * They stand for the worker's answer to one job only: the same text and the same options, compared here exactly
 * (options as JSON, the text by length and hash); anything else goes to the worker as always.
 */

/** The worker's answer to the first sample's job, as plain JSON (typed arrays tagged), with what it answered. */
export interface AheadChunks {
  /** `textKey` of the document the chunks index into. */
  textKey: string;
  /** JSON.stringify of the options the job ran with. */
  optionsJson: string;
  /** The answer, less its job id and version (see encodeAhead); its elapsedMs is the build's own run of the job. */
  result: unknown;
}

/** A document's identity for this comparison: its length and two 32-bit FNV-1a hashes of its UTF-16 code units. */
export function textKey(text: string): string {
  let a = 0x811c9dc5;
  let b = 0x01000193 ^ text.length;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    a = Math.imul(a ^ c, 0x01000193);
    b = Math.imul(b ^ c, 0x5bd1e995) ^ (b >>> 15);
  }
  return `${text.length}:${(a >>> 0).toString(36)}:${(b >>> 0).toString(36)}`;
}

const TYPED = { Int32Array, Float64Array, Uint8Array, Uint32Array, Float32Array, Int8Array, Uint16Array, Int16Array } as const;
type TypedName = keyof typeof TYPED;

/** A value as JSON: each typed array becomes `{ $typed: name, values }`. */
function encodeValue(value: unknown): unknown {
  if (ArrayBuffer.isView(value) && !(value instanceof DataView)) {
    const name = value.constructor.name as TypedName;
    if (!(name in TYPED)) throw new Error(`first chunks: cannot encode a ${name}`);
    return { $typed: name, values: Array.from(value as unknown as ArrayLike<number>) };
  }
  if (Array.isArray(value)) return value.map(encodeValue);
  if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, encodeValue(v)]));
  if (typeof value === 'number' && !Number.isFinite(value)) throw new Error('first chunks: a non-finite number does not survive JSON');
  return value;
}

function decodeValue(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(decodeValue);
  if (value && typeof value === 'object') {
    const tagged = value as { $typed?: TypedName; values?: number[] };
    if (tagged.$typed) return TYPED[tagged.$typed].from(tagged.values!);
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, decodeValue(v)]));
  }
  return value;
}

/** What the build writes: the worker's answer for `text` and `options`, its job id and version left out (the
 * header's "in N ms" shows the build's time for the job until the worker's answer comes with its own). */
export function encodeAhead(text: string, options: ChunkOptions, result: ChunkWorkerResult): AheadChunks {
  const { jobId: _jobId, version: _version, ...rest } = result;
  return { textKey: textKey(text), optionsJson: JSON.stringify(options), result: encodeValue({ ...rest, elapsedMs: Math.round(rest.elapsedMs) }) };
}

/**
 * The worker's answer to job `jobId` on document `version`, when `text` and `options` are the ones the chunks were
 * built for; else null (the worker runs the job).
 */
export function aheadResultFor(
  ahead: AheadChunks | null,
  text: string,
  options: ChunkOptions,
  jobId: number,
  version: number,
): ChunkWorkerResult | null {
  if (!ahead || JSON.stringify(options) !== ahead.optionsJson || textKey(text) !== ahead.textKey) return null;
  const rest = decodeValue(ahead.result) as Omit<ChunkWorkerResult, 'jobId' | 'version'>;
  return { ...rest, jobId, version };
}
