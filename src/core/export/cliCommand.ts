/**
 * The `chunkscope` command line for a configuration: `chunkscope corpus docs/ --out chunks/ --strategy markdown
 * --size 512`. Every chunking option is the flag of its row (./optionRows.ts: the kebab-case of its key, as the
 * CLI's parser src/cli/flags.ts reads it), and only the options that differ from what the CLI would resolve without
 * them are written. Values are shell-quoted (single quotes, a quote written '\''); list and template values are
 * escaped the way the CLI reads them back (`\n`, `\t`, `\\`, `\u{…}`). Exact by construction: parsing the arguments
 * with the CLI's parser resolves to the same options (cliCommand.test.ts checks it over the rows' kinds and ranges).
 *
 * Left out: the document's own data (its path, id and page starts: the corpus sets them per document) and the LLM
 * settings (the page's LLM feature is not part of ResolvedOptions).
 */
import { validateOptions } from '../options';
import { ENGINE_OPTIONS, type OptionSpec } from '../optionTable';
import type { ResolvedOptions } from '../types';

export type CliCommandName = 'chunk' | 'corpus';

export interface CliCommandSettings {
  command: CliCommandName;
  /** chunk: the file (default FILE); corpus: the folder (default docs/). */
  input?: string;
  /** corpus: the output folder (default chunks/). */
  out?: string;
  /** corpus: the sink, e.g. lancedb:index/ (none by default). */
  to?: string;
}

/** The options a command line can carry: not the document's own data. */
const PER_DOCUMENT = new Set<string>(['path', 'documentId', 'pageStarts']);
const COMMAND_OPTIONS = ENGINE_OPTIONS.filter((o) => o.kind !== 'offsets' && !PER_DOCUMENT.has(o.name));

/** The arguments after `chunkscope` (unquoted) for `options`. */
export function cliArgumentsFor(options: ResolvedOptions, settings: CliCommandSettings): string[] {
  const args: string[] = [settings.command];
  if (settings.command === 'chunk') args.push(settings.input ?? 'FILE');
  else {
    args.push(settings.input ?? 'docs/', '--out', settings.out ?? 'chunks/');
    if (settings.to) args.push('--to', settings.to);
  }
  for (const [spec, value] of differingOptions(options)) args.push(...flagArguments(spec, value));
  return args;
}

/** The shell command line (POSIX shells) for `options`. */
export function cliCommandFor(options: ResolvedOptions, settings: CliCommandSettings): string {
  return ['chunkscope', ...cliArgumentsFor(options, settings).map(shellQuote)].join(' ');
}

/**
 * The options to write, in table order: those whose value differs from what the CLI resolves from the options
 * written so far (a default may follow another option, e.g. a strategy's own defaults), repeated until none differs.
 */
function differingOptions(options: ResolvedOptions): [OptionSpec, unknown][] {
  const wanted = options as unknown as Record<string, unknown>;
  const given: Record<string, unknown> = { strategy: options.strategy };
  for (let changed = true, round = 0; changed && round < COMMAND_OPTIONS.length; round++) {
    changed = false;
    for (const spec of COMMAND_OPTIONS) {
      if (spec.name in given || wanted[spec.name] == null) continue;
      const resolved = validateOptions(given) as unknown as Record<string, unknown>;
      if (sameValue(resolved[spec.name], wanted[spec.name])) continue;
      given[spec.name] = wanted[spec.name];
      if (resolves(given) || dropOneInTheWay(given, spec.name)) changed = true;
      else delete given[spec.name]; // not yet: another option must come first (e.g. the retrieval mode's own)
    }
  }
  const defaultStrategy = validateOptions({}).strategy;
  return COMMAND_OPTIONS.filter((spec) => spec.name in given && (spec.name !== 'strategy' || options.strategy !== defaultStrategy)).map((spec) => [spec, given[spec.name]]);
}

/**
 * An option written earlier that the new one contradicts (compat chonkie after overlap 0: Chonkie has no overlap,
 * and its mode makes overlap 0 anyway) is taken out again; true when that lets the options resolve.
 */
function dropOneInTheWay(given: Record<string, unknown>, added: string): boolean {
  for (const name of Object.keys(given)) {
    if (name === added || name === 'strategy') continue;
    const value = given[name];
    delete given[name];
    if (resolves(given)) return true;
    given[name] = value;
  }
  return false;
}

function resolves(given: Record<string, unknown>): boolean {
  try {
    validateOptions(given);
    return true;
  } catch {
    return false;
  }
}

function sameValue(a: unknown, b: unknown): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

/** One option as the CLI's arguments (before shell quoting). */
function flagArguments(spec: OptionSpec, value: unknown): string[] {
  const flag = `--${spec.flag}`;
  switch (spec.kind) {
    case 'boolean':
      return [value === true ? flag : `${flag}=false`];
    case 'template':
      return [value === true ? flag : `${flag}=${escapeForCli(String(value))}`];
    case 'strings':
      return (value as string[]).flatMap((item) => flagValue(flag, escapeForCli(item)));
    case 'integers':
      return flagValue(flag, (value as number[]).join(','));
    default:
      return flagValue(flag, String(value));
  }
}

/** `--flag value`, or `--flag=-5` for a value that starts with a dash (the parser would take it for a flag). */
function flagValue(flag: string, value: string): string[] {
  return value.startsWith('-') ? [`${flag}=${value}`] : [flag, value];
}

const CLI_ESCAPES: Record<string, string> = { '\\': '\\\\', '\n': '\\n', '\r': '\\r', '\t': '\\t', '\0': '\\0' };

/** A list item or template as the CLI's parseEscapes reads it back: backslashes and control characters escaped. */
export function escapeForCli(text: string): string {
  // eslint-disable-next-line no-control-regex
  return text.replace(/[\\\u0000-\u001f\u007f]/g, (c) => CLI_ESCAPES[c] ?? `\\u{${c.codePointAt(0)!.toString(16)}}`);
}

/** A word as a POSIX shell reads it: bare when it has only safe characters, else single-quoted ('\'' for a quote). */
export function shellQuote(word: string): string {
  if (/^[A-Za-z0-9_./:=,+@%-]+$/.test(word)) return word;
  return `'${word.replace(/'/g, `'\\''`)}'`;
}
