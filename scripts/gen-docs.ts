/**
 * `npm run docs`: writes docs/strategies.md from the engine's own declarations — the strategy registry
 * (src/core/strategies/index.ts) and the option table (src/core/optionTable.ts) — so the page can never drift from
 * the code. src/docs.test.ts fails when the committed file differs from what this renders; run `npm run docs` after
 * changing a strategy's description or an option row, and commit the result.
 *
 * Only what the declarations say is written here; prose about how a strategy works lives in the hand-written pages.
 */
import { writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { LANGUAGE_NAMES } from '../src/core/languages';
import { OPTION_TABLE, type OptionGroup, type OptionSpec } from '../src/core/optionTable';
import type { StrategyDescription } from '../src/core/registry';
import { STRATEGIES } from '../src/core/strategies/index';

export const STRATEGIES_DOC = 'docs/strategies.md';

const GROUP_TITLES: Record<OptionGroup, string> = {
  splitting: 'Splitting',
  document: 'Document data',
  semantic: 'Semantic chunking',
  structure: 'Structure (markdown, HTML, code)',
  headers: 'Contextual headers',
  retrieval: 'Retrieval units',
  page: 'Page settings',
  eval: 'Evaluation',
};
const GROUP_ORDER: OptionGroup[] = ['splitting', 'document', 'semantic', 'structure', 'headers', 'retrieval', 'page', 'eval'];

const strategies = STRATEGIES as readonly StrategyDescription<string>[];

/** A value as the docs show it: none for null, lists joined, strings quoted only where whitespace matters. */
function showValue(value: unknown): string {
  if (value === null || value === undefined) return 'none';
  if (Array.isArray(value)) return value.length === 0 ? '`[]`' : '`' + JSON.stringify(value) + '`';
  if (typeof value === 'string') return /^\S+$/.test(value) ? '`' + value + '`' : '`' + JSON.stringify(value) + '`';
  return '`' + String(value) + '`';
}

/** Prose from the declarations: `<` would open an HTML tag in markdown. */
function prose(text: string): string {
  return text.replace(/</g, '&lt;');
}

/** Table cells may not hold a pipe or a line break. */
function cell(text: string): string {
  return prose(text).replace(/\|/g, '\\|').replace(/\n/g, ' ');
}

const anchorOf = (name: string) => `option-${name.toLowerCase()}`;
const optionLink = (name: string) => `[\`${name}\`](#${anchorOf(name)})`;

function strategiesUsing(name: string): string[] {
  return strategies.filter((s) => (s.controls as string[]).includes(name)).map((s) => s.id);
}

function defaultCell(spec: OptionSpec): string {
  const overrides = strategies
    .filter((s) => Object.prototype.hasOwnProperty.call(s.defaults, spec.name))
    .map((s) => [s.id, (s.defaults as Record<string, unknown>)[spec.name]] as const)
    .filter(([, v]) => JSON.stringify(v) !== JSON.stringify(spec.default));
  const base = showValue(spec.default);
  return overrides.length ? `${base} (${overrides.map(([id, v]) => `${id}: ${showValue(v)}`).join('; ')})` : base;
}

function flagCell(spec: OptionSpec): string {
  const aliases = (spec.aliases ?? []).map((a) => `\`--${a}\``);
  const also = aliases.length ? ` (also ${aliases.join(', ')})` : '';
  if (spec.kind === 'offsets') return 'library only';
  if (spec.engine === false && !spec.eval) return `page only; URL \`${spec.flag}=\``;
  const where = spec.eval ? 'eval, sweep' : 'chunk';
  const url = spec.document ? 'not in links' : `URL \`${spec.flag}=\``;
  return `\`--${spec.flag}\`${also}; ${where}; ${url}`;
}

function kindCell(spec: OptionSpec): string {
  if (spec.kind === 'choice' && spec.choices) return spec.choices.map((c) => '`' + c + '`').join(', ');
  return spec.kind;
}

function appliesCell(spec: OptionSpec): string {
  const using = strategiesUsing(spec.name);
  return using.length ? using.join(', ') : '—';
}

function optionsSection(): string[] {
  const out: string[] = ['## Options', ''];
  out.push(
    'Every option is one row of `OPTION_TABLE`: a chunking, page or shared evaluation option is declared in',
    "src/core/optionRows.ts (a strategy's or a retriever's own in its folder's options.ts) and gets its checks in",
    'src/core/optionTable.ts; each row has its library key (the name below, as in',
    '`chunk(text, { name })`), its kebab-case flag (the CLI flag and the share link\'s URL key), kind, default and help',
    '(the same line `chunkscope --help` prints). *Applies to* lists the strategies that show the option among their',
    'controls; — means it is not a per-strategy control (it applies as its help says). A default in brackets is a',
    "strategy's own.",
    '',
  );
  for (const group of GROUP_ORDER) {
    const rows = OPTION_TABLE.filter((o) => o.group === group);
    if (rows.length === 0) continue;
    out.push(`### ${GROUP_TITLES[group]}`, '');
    out.push('| option | flag | kind / values | default | applies to | what it does |', '| --- | --- | --- | --- | --- | --- |');
    for (const spec of rows) {
      out.push(
        `| <a id="${anchorOf(spec.name)}"></a>\`${spec.name}\` | ${cell(flagCell(spec))} | ${cell(kindCell(spec))} | ${cell(defaultCell(spec))} | ${cell(appliesCell(spec))} | ${cell(spec.help)} |`,
      );
    }
    out.push('');
  }
  return out;
}

function strategySection(s: StrategyDescription<string>): string[] {
  const out = [`### \`${s.id}\` — ${s.label}`, '', prose(s.description), ''];
  const defaults = Object.entries(s.defaults).map(([k, v]) => `${k} ${showValue(v)}`);
  if (defaults.length) out.push(`- **Defaults**: ${defaults.join(', ')}`);
  out.push(`- **Options**: ${s.controls.map(optionLink).join(', ')}`);
  if (s.compat.length) {
    out.push(`- **Compatibility modes**: ${s.compat.map((c) => '`' + c + '`').join(', ')}${s.compatNote ? ` — ${prose(s.compatNote)}` : ''}`);
    for (const [mode, profile] of Object.entries(s.compatProfiles ?? {})) {
      const parts: string[] = [];
      const d = Object.entries(profile?.defaults ?? {}).map(([k, v]) => `${k} ${showValue(v)}`);
      if (d.length) parts.push(`defaults ${d.join(', ')}`);
      if (profile?.units) parts.push(`units ${profile.units.allowed.map((u) => '`' + u + '`').join(', ')}`);
      const r = Object.keys(profile?.refuses ?? {});
      if (r.length) parts.push(`refuses ${r.map((k) => '`' + k + '`').join(', ')}`);
      const ret = Object.entries(profile?.retrieval ?? {}).map(([mode, c]) => `\`${mode}\` as ${c?.reproduces}`);
      if (ret.length) parts.push(`retrieval units ${ret.join(', ')}`);
      if (parts.length) out.push(`  - under \`${mode}\`: ${parts.join('; ')}`);
    }
  }
  for (const [name, reason] of Object.entries(s.refuses ?? {})) out.push(`- **Refuses** \`${name}\`: ${prose(reason)}`);
  for (const [mode, reason] of Object.entries(s.refusesRetrieval ?? {})) out.push(`- **Refuses retrieval units** \`${mode}\`: ${prose(reason)}`);
  if (s.tokenUnitOnly) out.push('- **Unit**: a tiktoken encoding only');
  if (s.needsSeparators) out.push('- **Separators**: at least one is needed');
  if (s.needsEmbeddings) out.push('- **Embeddings**: needs `hooks.embed` (the page and the CLI supply the chosen `embedder`)');
  if (s.language) out.push(`- **\`language\`** is its ${s.language.noun}: ${s.language.names.map((n) => '`' + n + '`').join(', ')}`);
  if (s.documentFormats?.length) out.push(`- **Opening a file** of kind ${s.documentFormats.map((f) => '`' + f + '`').join(', ')} switches the page to it`);
  if (s.hasSections) out.push('- **Sections**: yes (heading paths, parents for parent–child units, contextual headers)');
  out.push('');
  return out;
}

/** docs/strategies.md as the declarations describe it. */
export function renderStrategiesDoc(): string {
  const lines = [
    '# Strategies and options',
    '',
    '<!-- Generated by `npm run docs` (scripts/gen-docs.ts) from src/core/strategies/index.ts and',
    '     src/core/optionRows.ts and src/core/optionTable.ts. Do not edit by hand: src/docs.test.ts fails when this file is stale. -->',
    '',
    'How each strategy works in prose, and what the structure-aware ones add, is in [chunking.md](chunking.md); the',
    'compatibility modes are in [compat.md](compat.md).',
    '',
    '## Strategies',
    '',
    '| strategy | label | what it does |',
    '| --- | --- | --- |',
    ...strategies.map((s) => `| [\`${s.id}\`](#${s.id}) | ${cell(s.label)} | ${cell(s.description)} |`),
    '',
    ...strategies.flatMap((s) => [`<a id="${s.id}"></a>`, '', ...strategySection(s)]),
    `Language presets of the \`language\` option for recursive: ${LANGUAGE_NAMES.map((n) => '`' + n + '`').join(', ')}.`,
    '',
    ...optionsSection(),
  ];
  return lines.join('\n').replace(/\n+$/, '') + '\n';
}

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  writeFileSync(resolve(root, STRATEGIES_DOC), renderStrategiesDoc());
  console.log(`wrote ${STRATEGIES_DOC}`);
}
