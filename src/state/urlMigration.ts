import { optionByFlag } from '../core/optionTable';
import { strategyDefinition } from './strategyInfo';

/**
 * Links and stored settings written by the page before the option table (src/core/optionTable.ts) gave every option
 * one name. Old share links used short URL keys; old stored settings used other field names. Both are rewritten
 * here into today's form, then read by the one codec (urlCodec.ts, persistence.ts) like anything else.
 *
 * Old URL key → today's key (the option's flag); each old key is one of the option's `aliases` in the table:
 *   sep (repeated) → separators       regex=1 → separators-are-regex=1    keep → keep-separator
 *   lang → language (a recursive preset: only for a strategy without its own language)
 *   codelang → language (the grammar: only for a strategy with its own language, e.g. code)
 *   threshold → amount   depth → heading-depth   rows=1 → rows-as-text=1   strip=0 → strip-headers=0
 *   each=1 → return-each-line=1   hdr=path → headers=1 (the default template), hdr=<template> → headers=<template>
 *   ret → retrieval   psize → parent-size   win → window   ctx → context-window   k → chunks-in-context
 * Unchanged: strategy, size, overlap, unit, locale, compat (langchain | llamaindex), breakpoint, chunks, buffer,
 * min-size, max-size, embedder, sentences, levels, path.
 * What an old link left out meant the default (regex off, structure keys at their defaults), as today's links do.
 */
export const OLD_URL_KEYS: Readonly<Record<string, string>> = {
  sep: 'separators',
  regex: 'separators-are-regex',
  keep: 'keep-separator',
  lang: 'language',
  codelang: 'language',
  threshold: 'amount',
  depth: 'heading-depth',
  rows: 'rows-as-text',
  strip: 'strip-headers',
  each: 'return-each-line',
  hdr: 'headers',
  ret: 'retrieval',
  psize: 'parent-size',
  win: 'window',
  ctx: 'context-window',
  k: 'chunks-in-context',
};

/** Today's query for a query that may use old keys (or the CLI's older spellings); today's keys win over old ones. */
export function migrateQuery(input: URLSearchParams): URLSearchParams {
  const strategy = strategyDefinition(input.get('strategy') ?? 'recursive');
  const out = new URLSearchParams();
  const renamed: [string, string][] = [];
  for (const [key, value] of input) {
    const spec = optionByFlag(key);
    if (!spec || spec.flag === key) {
      out.append(key, value);
      continue;
    }
    // `language` had two old keys: the recursive preset (lang) and the code grammar (codelang). The strategy's
    // description says which one the link's strategy read; the other was a leftover the page ignored.
    if (key === 'lang' && strategy.language) continue;
    if (key === 'codelang' && !strategy.language) continue;
    // hdr=path meant the default template (title and heading path): today's headers=1.
    const migrated = key === 'hdr' && value === 'path' ? '1' : value;
    renamed.push([spec.flag, migrated]);
  }
  for (const [flag, value] of renamed) if (!input.has(flag)) out.append(flag, value);
  return out;
}

/** Field names of the settings the previous version stored (see migrateStoredSettings). */
const OLD_FIELDS = ['targetChunks', 'llamaindex', 'headerMode', 'headerTemplate', 'codeLanguage'];

export type MigratedSettings = { ok: true; value: Record<string, unknown> } | { ok: false; reason: string };

/**
 * Stored settings of the previous version → today's field names:
 *   targetChunks → chunks;  compat: true → compat 'langchain', llamaindex: true → compat 'llamaindex' (else 'none');
 *   headerMode 'off' → headers null, 'path' → true, 'custom' + headerTemplate → headers = the template (blank: true);
 *   codeLanguage → language where the stored strategy has its own language (code), whose recursive preset it replaces.
 * Today's settings pass through unchanged. A malformed old field rejects the whole (as a malformed new one does).
 */
export function migrateStoredSettings(stored: Record<string, unknown>): MigratedSettings {
  const old = OLD_FIELDS.some((f) => f in stored) || typeof stored.compat === 'boolean';
  if (!old) return { ok: true, value: stored };
  const v: Record<string, unknown> = { ...stored };
  for (const f of OLD_FIELDS) delete v[f];

  if ('targetChunks' in stored) v.chunks = stored.targetChunks;

  const langchain = stored.compat ?? false;
  const llamaindex = stored.llamaindex ?? false;
  if (typeof langchain !== 'boolean' || typeof llamaindex !== 'boolean') return { ok: false, reason: 'compat must be true or false' };
  v.compat = langchain ? 'langchain' : llamaindex ? 'llamaindex' : 'none';

  if ('headerMode' in stored) {
    const mode = stored.headerMode;
    const template = stored.headerTemplate ?? '';
    if (mode !== 'off' && mode !== 'path' && mode !== 'custom') return { ok: false, reason: 'headerMode must be one of off, path, custom' };
    if (typeof template !== 'string') return { ok: false, reason: 'headerTemplate must be a string' };
    v.headers = mode === 'off' ? null : mode === 'path' || template.trim() === '' ? true : template;
  }

  const strategy = typeof stored.strategy === 'string' ? strategyDefinition(stored.strategy) : null;
  if (strategy?.language) {
    const code = stored.codeLanguage ?? null;
    if (code !== null && typeof code !== 'string') return { ok: false, reason: 'codeLanguage must be a string' };
    v.language = code;
  }
  return { ok: true, value: v };
}
