import { ENGINE_OPTIONS, type OptionSpec } from '../core/optionTable';
import type { StrategyDescription } from '../core/registry';
import type { ChunkOptions } from '../core/types';
import type { Config, ConfigName } from './configSlice';
import { PATH_LIMIT, shortenFileName } from './fileName';
import { canonicalFor, optionApplies, optionInUse, strategyDefinition, usableFor } from './strategyInfo';

/** What the options take from the document rather than from the controls. */
export interface DocumentFacts {
  /** The file or sample name: the path when the user gave none ({file} in headers, code language detection). */
  name?: string | null;
  /** PDF import: where each page starts (page numbers in the metadata). */
  pageStarts?: number[] | null;
}

/**
 * The ChunkOptions the worker receives for a configuration, read off the option table: each chunking option that
 * applies to the chosen strategy (its description's `controls`, or a sub-option of one of them) and is in use
 * under the other values, unless it is unset (null). So a hidden control never changes or breaks a result.
 * Switches and choices at the default the engine would take anyway are left out (the CLI line stays short);
 * numbers and text are sent when set. This object is also what `window.__chunkscope.getConfig()` returns and what
 * export uses, so the CLI can be given the same options.
 */
export function toChunkOptions(config: Config, doc: DocumentFacts = {}): ChunkOptions {
  const strategy = strategyDefinition(config.strategy);
  const options: Record<string, unknown> = {};
  for (const spec of ENGINE_OPTIONS) {
    if (!optionApplies(spec, strategy) || !optionInUse(spec, config)) continue;
    const value = config[spec.name as ConfigName];
    if (value === null || value === undefined || !usableFor(spec, value, strategy)) continue;
    if (spec.name !== 'strategy' && atEngineDefault(spec, value, strategy)) continue;
    options[spec.name] = engineValue(spec, canonicalFor(spec, value, strategy));
  }
  // The document's own facts: its name is the path when the user typed none (or the strategy has no path box).
  if (options.path === undefined && doc.name) options.path = shortenFileName(doc.name, PATH_LIMIT);
  if (Array.isArray(doc.pageStarts) && doc.pageStarts.length > 0) options.pageStarts = doc.pageStarts;
  return options as ChunkOptions;
}

/** A switch or choice at the value the engine uses when it is not given (the strategy's default over the table's). */
function atEngineDefault(spec: OptionSpec, value: unknown, strategy: StrategyDescription): boolean {
  if (spec.kind !== 'boolean' && spec.kind !== 'choice') return false;
  const own = (strategy.defaults as Record<string, unknown>)[spec.name];
  return value === (own === undefined ? spec.default : own);
}

/** The page's value in the engine's form (by the table's kind). */
function engineValue(spec: OptionSpec, value: unknown): unknown {
  switch (spec.kind) {
    case 'template':
      // true: the default template; a blank box means the default template too.
      return value === true || (value as string).trim() === '' ? true : templateEscapes(value as string);
    case 'integers':
      return parseLevels(value as string);
    case 'strings':
      return [...(value as string[])];
    default:
      return value;
  }
}

/** A one-line box cannot hold a line break: \n, \t and \\ in a template mean what they mean to the CLI's --headers. */
export function templateEscapes(typed: string): string {
  return typed.replace(/\\([nt\\])/g, (_, c: string) => (c === 'n' ? '\n' : c === 't' ? '\t' : '\\'));
}

/**
 * "2048, 512, 128" → [2048, 512, 128]. A piece that is not a whole number is passed on as typed, so that core's
 * validation names it in its one-line message instead of the page guessing.
 */
export function parseLevels(text: string): number[] {
  return text
    .split(/[\s,;]+/)
    .filter((piece) => piece !== '')
    .map((piece) => (/^\d+$/.test(piece) ? Number(piece) : (piece as unknown as number)));
}
