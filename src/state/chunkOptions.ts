import { strategyDefinition } from './strategyInfo';
import type { ChunkOptions } from '../core/types';
import type { Config } from './configSlice';

/**
 * The ChunkOptions the worker receives for a configuration: only the controls that the chosen strategy uses
 * (the registry says which), so a hidden control never changes or breaks a result. This object is also what
 * `window.__chunkscope.getConfig()` returns and what export uses, so the CLI can be given the same options.
 */
export function toChunkOptions(config: Config): ChunkOptions {
  const strategy = strategyDefinition(config.strategy);
  const controls = new Set<string>(strategy.controls);
  if (config.strategy === 'semantic') return semanticOptions(config, controls);
  const options: ChunkOptions = { strategy: config.strategy, size: config.size, overlap: config.overlap };
  if (controls.has('unit')) options.unit = config.unit;
  if (controls.has('language') && config.language) options.language = config.language;
  if (controls.has('separators') && config.separators) options.separators = [...config.separators];
  // Hidden (and not sent) in compat mode: LangChain splits on literal separators only.
  if (controls.has('separators') && config.separatorsAreRegex && !config.compat) options.separatorsAreRegex = true;
  if (controls.has('keepSeparator') && config.keepSeparator) options.keepSeparator = config.keepSeparator;
  if (controls.has('locale') && config.locale) options.locale = config.locale;
  if (config.compat && strategy.compat.includes('langchain')) options.compat = 'langchain';
  return options;
}

/** Semantic options: no size or overlap (a semantic chunk is as long as its topic), the CLI's flags otherwise. */
function semanticOptions(config: Config, controls: Set<string>): ChunkOptions {
  const options: ChunkOptions = { strategy: 'semantic', unit: config.unit, breakpoint: config.breakpoint, buffer: config.buffer };
  // A target number of chunks replaces the threshold: an unused (perhaps out-of-range) amount is not sent.
  if (config.amount !== null && config.targetChunks === null) options.amount = config.amount;
  if (config.targetChunks !== null) options.chunks = config.targetChunks;
  if (config.minSize !== null) options.minSize = config.minSize;
  if (config.maxSize !== null) options.maxSize = config.maxSize;
  options.embedder = config.embedder;
  if (config.sentences !== 'intl') options.sentences = config.sentences;
  if (controls.has('locale') && config.locale) options.locale = config.locale;
  if (config.compat) options.compat = 'langchain';
  else if (config.llamaindex) options.compat = 'llamaindex';
  return options;
}
