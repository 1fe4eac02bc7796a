import { strategyDefinition } from './strategyInfo';
import type { ChunkOptions } from '../core/types';
import type { Config } from './configSlice';

/** What the options take from the document rather than from the controls. */
export interface DocumentFacts {
  /** The file or sample name: the path when the user gave none ({file} in headers, code language detection). */
  name?: string | null;
  /** PDF import: where each page starts (page numbers in the metadata). */
  pageStarts?: number[] | null;
}

/**
 * The ChunkOptions the worker receives for a configuration: only the controls that the chosen strategy uses
 * (the registry says which), so a hidden control never changes or breaks a result. This object is also what
 * `window.__chunkscope.getConfig()` returns and what export uses, so the CLI can be given the same options.
 */
export function toChunkOptions(config: Config, doc: DocumentFacts = {}): ChunkOptions {
  const strategy = strategyDefinition(config.strategy);
  const controls = new Set<string>(strategy.controls);
  if (config.strategy === 'semantic') return withDocument(semanticOptions(config, controls), config, controls, doc);
  const options: ChunkOptions = { strategy: config.strategy, size: config.size, overlap: config.overlap };
  if (controls.has('unit')) options.unit = config.unit;
  // The code strategy's language is a grammar (its own select); the others' is a recursive separator preset.
  if (config.strategy === 'code') {
    if (config.codeLanguage) options.language = config.codeLanguage;
  } else if (controls.has('language') && config.language) options.language = config.language;
  if (controls.has('separators') && config.separators) options.separators = [...config.separators];
  // Hidden (and not sent) in compat mode: LangChain splits on literal separators only.
  if (controls.has('separators') && config.separatorsAreRegex && !config.compat) options.separatorsAreRegex = true;
  if (controls.has('keepSeparator') && config.keepSeparator) options.keepSeparator = config.keepSeparator;
  if (controls.has('locale') && config.locale) options.locale = config.locale;
  if (config.compat && strategy.compat.includes('langchain')) options.compat = 'langchain';
  else if (config.llamaindex && strategy.compat.includes('llamaindex')) options.compat = 'llamaindex';
  if (controls.has('headingDepth')) options.headingDepth = config.headingDepth;
  if (controls.has('rowsAsText') && config.rowsAsText) options.rowsAsText = true;
  // MarkdownHeaderTextSplitter's own flags: they mean nothing outside LangChain compatibility.
  if (options.compat === 'langchain') {
    if (controls.has('stripHeaders') && !config.stripHeaders) options.stripHeaders = false;
    if (controls.has('returnEachLine') && config.returnEachLine) options.returnEachLine = true;
  }
  return withDocument(options, config, controls, doc);
}

/** Contextual headers, retrieval units and the document's own facts (path, pages): any strategy that lists them. */
function withDocument(options: ChunkOptions, config: Config, controls: Set<string>, doc: DocumentFacts): ChunkOptions {
  if (controls.has('headers') && config.headerMode !== 'off') {
    const template = config.headerTemplate.trim() === '' ? null : config.headerTemplate;
    options.headers = config.headerMode === 'custom' && template !== null ? templateEscapes(template) : true;
  }
  if (controls.has('retrieval') && config.retrieval !== 'chunks') {
    options.retrieval = config.retrieval;
    if (config.retrieval === 'parent-child' && config.parentSize !== null) options.parentSize = config.parentSize;
    if (config.retrieval === 'window') options.window = config.window;
    if (config.retrieval === 'hierarchical') options.levels = parseLevels(config.levels);
  }
  // The user's path only where its box is shown (a path typed for the code strategy is not markdown's {file}).
  const userPath = controls.has('path') || config.strategy === 'code' ? config.path : null;
  const path = userPath ?? doc.name ?? null;
  if (path) options.path = path;
  if (Array.isArray(doc.pageStarts) && doc.pageStarts.length > 0) options.pageStarts = doc.pageStarts;
  return options;
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

