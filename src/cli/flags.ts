/**
 * The CLI's flags and --help, made from the option table (src/core/optionTable.ts): every chunking option is the
 * flag of its kebab-case name, with its older spellings as aliases. Only what is not a chunking option is listed
 * here: the output format, PDF page furniture, help and version.
 */
import type { ParseArgsConfig } from 'node:util';
import { EXPORTERS, type Exporter } from '../core/export/exporters';
import { ENGINE_OPTIONS, type OptionGroup, type OptionSpec } from '../core/optionTable';
import { STRATEGIES } from '../core/strategies';
import type { ChunkOptions } from '../core/types';
import { optionsFromConfigFile } from './configFile';
import { CliError, parseDecimal, parseEscapes, parseWholeNumber } from './input';
import { EMBED_FLAG_ROW, EMBED_PARSE_OPTIONS } from './embedFlags';
import { LLM_FLAG_ROWS, LLM_PARSE_OPTIONS } from './llmFlags';

type ParseOptions = NonNullable<ParseArgsConfig['options']>;

/** The chunking options that are flags (document data such as page starts are not). */
export const FLAG_OPTIONS = ENGINE_OPTIONS.filter((o) => o.kind !== 'offsets');

/** Older spellings that were URL keys only: not offered as flags. */
const URL_ONLY_ALIASES = new Set(['sep', 'keep', 'lang', 'codelang', 'hdr', 'ret', 'psize', 'win', 'depth', 'rows', 'strip', 'each']);

export function cliAliases(spec: OptionSpec): string[] {
  return (spec.aliases ?? []).filter((a) => !URL_ONLY_ALIASES.has(a));
}

/** The flags that are not chunking options. */
const OWN_FLAGS: ParseOptions = {
  format: { type: 'string' },
  'drop-page-furniture': { type: 'boolean' },
  // The most bytes read from a file or standard input (src/cli/read.ts).
  'max-bytes': { type: 'string' },
  // The old switch for strip_headers=False.
  'keep-headers': { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
  version: { type: 'boolean', short: 'v' },
  ...LLM_PARSE_OPTIONS,
  ...EMBED_PARSE_OPTIONS,
};

/** parseArgs' configuration for every flag (`specs`: the table's rows that are flags; eval and sweep add theirs). */
export function parseArgsOptions(specs: readonly OptionSpec[] = FLAG_OPTIONS, own: ParseOptions = OWN_FLAGS): ParseOptions {
  // --config FILE: every command's chunking options from a file (./configFile.ts), under the flags given.
  const options: ParseOptions = { ...own, config: { type: 'string' } };
  for (const spec of specs) {
    const switchLike = spec.kind === 'boolean' || spec.kind === 'template';
    options[spec.flag] = switchLike ? { type: 'boolean' } : { type: 'string', ...(spec.kind === 'strings' ? { multiple: true } : {}) };
    for (const alias of cliAliases(spec)) {
      // --header-template <t> takes its template as the next argument.
      options[alias] = switchLike && alias !== 'header-template' ? { type: 'boolean' } : { type: 'string', ...(spec.kind === 'strings' ? { multiple: true } : {}) };
    }
  }
  return options;
}

/**
 * Switches with a value written `--flag=value` (parseArgs has no optional values): `--headers=<template>` and
 * `--rows-as-text=false`. Taken out of argv before parseArgs sees it.
 */
export function takeSwitchValues(argv: string[], specs: readonly OptionSpec[] = FLAG_OPTIONS): { rest: string[]; values: Map<string, string> } {
  const switches = new Set(specs.filter((o) => o.kind === 'boolean' || o.kind === 'template').flatMap((o) => [o.flag, ...cliAliases(o)]));
  const values = new Map<string, string>();
  const rest: string[] = [];
  for (const arg of argv) {
    const m = /^--([a-z-]+)=([\s\S]*)$/.exec(arg);
    if (m && switches.has(m[1]!)) values.set(m[1]!, m[2]!);
    else rest.push(arg);
  }
  return { rest, values };
}

/**
 * `--size -5`: parseArgs refuses a value starting with a dash ("argument is ambiguous", three lines). A negative
 * number after a flag that takes a value is joined to it (`--size=-5`), so validation says what is wrong in one line.
 */
export function joinNegativeValues(argv: string[], options: ParseOptions): string[] {
  const out: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    const next = argv[i + 1];
    const m = /^--([A-Za-z0-9-]+)$/.exec(arg);
    const spec = m ? options[m[1]!] : undefined;
    if (spec && spec.type === 'string' && next !== undefined && /^-(\d|\.\d|Infinity)/.test(next)) {
      out.push(`${arg}=${next}`);
      i++;
    } else out.push(arg);
  }
  return out;
}

/** parseArgs' error as one line (its messages run over several lines and sentences). */
export function parseArgsMessage(err: unknown): string {
  const first = (err instanceof Error ? err.message : String(err)).split('\n')[0]!.split('. ')[0]!.replace(/\.$/, '');
  return `${first} (see --help)`;
}

/** ChunkOptions from parsed flags: each value converted by its kind; errors name the flag as it was typed. */
export function optionsFromFlags(values: Record<string, unknown>, switchValues: Map<string, string>, specs: readonly OptionSpec[] = FLAG_OPTIONS): ChunkOptions {
  const options: Record<string, unknown> = {};
  for (const spec of specs) {
    for (const used of [spec.flag, ...cliAliases(spec)]) {
      const explicit = switchValues.get(used);
      const raw = explicit ?? values[used];
      if (raw === undefined) continue;
      options[spec.name] = convert(spec, `--${used}`, raw, explicit !== undefined || used === 'header-template');
    }
  }
  if (values['keep-headers']) options.stripHeaders = false;
  if (typeof values.config === 'string') {
    // The file's chunking options that these commands take; a flag given overrides the file.
    const names = new Set<string>(specs.map((s) => s.name));
    const fromFile = Object.entries(optionsFromConfigFile(values.config)).filter(([name]) => names.has(name));
    return { ...Object.fromEntries(fromFile), ...options } as ChunkOptions;
  }
  return options as ChunkOptions;
}

function convert(spec: OptionSpec, flag: string, raw: unknown, written: boolean): unknown {
  switch (spec.kind) {
    case 'integer':
      return parseWholeNumber(flag, String(raw));
    case 'number':
      return parseDecimal(flag, String(raw));
    case 'strings':
      return (raw as string[]).map(parseEscapes);
    case 'integers':
      return String(raw)
        .split(',')
        .map((v) => parseWholeNumber(flag, v.trim()));
    case 'boolean':
      if (!written) return raw === true;
      if (/^(true|1|yes)$/i.test(String(raw))) return true;
      if (/^(false|0|no)$/i.test(String(raw))) return false;
      throw new CliError(`${flag} must be true or false (got "${raw}")`);
    case 'template':
      return written ? parseEscapes(String(raw)) : raw === true;
    default:
      return raw;
  }
}

const GROUP_TITLES: Record<Exclude<OptionGroup, 'page' | 'eval'>, string> = {
  splitting: 'Options:',
  document: '',
  semantic:
    'Semantic chunking (--strategy semantic): cuts where neighbouring sentences\' embeddings are far apart; each chunk\nafter the first has metadata.distanceBefore, the distance (1 - cosine) at the boundary before it.',
  structure:
    'Structure (--strategy markdown | html | code): chunks carry metadata.headingPath (the breadcrumbs), contentType\n(text | table | code) and, from a PDF, pages. PDF and DOCX files are read too.',
  headers: '',
  retrieval: 'Retrieval units (one at a time; metadata.level, parentId and leaf say which chunk is which):',
};

const WIDTH = 112;
const FLAG_COLUMN = 27;

function wrap(text: string, indent: number): string {
  const words = text.split(' ');
  const lines: string[] = [];
  let line = '';
  for (const word of words) {
    if (line !== '' && indent + line.length + 1 + word.length > WIDTH) {
      lines.push(line);
      line = word;
    } else line = line === '' ? word : `${line} ${word}`;
  }
  lines.push(line);
  return lines.join('\n' + ' '.repeat(indent));
}

export function row(flag: string, help: string): string {
  const left = `  ${flag}`;
  const pad = left.length < FLAG_COLUMN ? left.padEnd(FLAG_COLUMN) : left + '\n' + ' '.repeat(FLAG_COLUMN);
  return pad + wrap(help, FLAG_COLUMN);
}

export function optionHelp(spec: OptionSpec): string {
  let help = spec.help;
  if (spec.name === 'strategy') help += ': ' + STRATEGIES.map((s) => s.id).join(' | ') + ' (default: recursive)';
  else if (spec.kind === 'choice' && spec.name !== 'breakpoint' && spec.name !== 'retrieval' && spec.name !== 'sentences') help += ': ' + spec.choices!.join(' | ');
  const aliases = cliAliases(spec).map((a) => `--${a}`);
  if (aliases.length > 0) help += ` (also ${aliases.join(', ')})`;
  return help;
}

/** --help: the command, then every option of the table by group, then the CLI's own flags. */
export function usage(): string {
  const out = [
    'Usage: chunkscope chunk <file|-> [options]',
    '       chunkscope corpus <folder|file...|-> --out <dir> [options]   (a whole corpus, incrementally: corpus --help)',
    '       chunkscope golden generate <file>... --llm-base-url <url> --llm-model <name>   (LLM-generated questions: golden generate --help)',
    '',
    'Cut a text file (or standard input, "-") into chunks and print them (JSON by default). Every option is also a',
    'key of chunk(text, options) in the library (camelCase) and of the page\'s share links (kebab-case, as here).',
    '',
  ];
  const order: Exclude<OptionGroup, 'page' | 'eval'>[] = ['splitting', 'document', 'semantic', 'structure', 'headers', 'retrieval'];
  for (const group of order) {
    const title = GROUP_TITLES[group];
    if (title) out.push(...(out[out.length - 1] === '' ? [] : ['']), title);
    for (const spec of FLAG_OPTIONS.filter((o) => o.group === group)) out.push(row(`--${spec.flag}${spec.arg ? ' ' + spec.arg : ''}`, optionHelp(spec)));
    if (group === 'semantic') out.push(row(EMBED_FLAG_ROW.flag, EMBED_FLAG_ROW.help));
  }
  out.push(
    '',
    'Input and output:',
    row('--format <name>', EXPORTERS.map((e: Exporter) => (e.cliHelp ? `${e.id} (${e.cliHelp})` : e.id)).join(' | ')),
    row('--drop-page-furniture', 'PDF: drop lines repeated at the top or bottom of most pages'),
    row('--max-bytes <size>', 'the largest input read, e.g. 200MiB (default 64 MiB, at most 512 MiB); text is UTF-8 (a BOM is kept as character 0) or UTF-16 with a BOM'),
    row('--keep-headers', 'the same as --strip-headers=false'),
    row('--config <file|link>', "chunking options from the page's share link or file, its JSON export, a corpus manifest.json, or {\"options\": {...}}; flags given override it"),
    row('--input jsonl', 'with -: one document per line ({"id", "text", "path"?, "metadata"?}), one chunk per line out, as it arrives (docs/distributed.md)'),
    '',
    'LLM features (chunkscope chunk only; the other options choose the base strategy):',
    ...LLM_FLAG_ROWS.map((r) => row(`--${r.flag}${r.arg ? ' ' + r.arg : ''}`, r.help)),
    '',
    row('-h, --help', 'show this help'),
    row('-v, --version', 'show the version'),
  );
  return out.join('\n');
}
