// Light imports only (this module is in the page's first bundle through the store): the templates and the provider
// names are small; the feature registry pulls the engine and loads with the LLM panel. Each feature's prompt
// template has the feature's name, so the template ids are the feature names.
import type { LlmFeatureName } from '../core/llm';
import { LLM_PROVIDER_NAMES, type LlmProviderName } from '../core/llm/providers/names';
import { DEFAULT_TEMPLATES, type PromptTemplate, type TemplateId } from '../core/llm/templates';

const FEATURE_NAMES: readonly string[] = Object.keys(DEFAULT_TEMPLATES);

/**
 * The page's LLM settings: which provider and feature, where the endpoint is, limits, prices and edited prompt
 * templates. They are configuration (the share link's `llm` key, the export, copy-as-code carry them); the API key
 * is not: it lives in the llm slice's memory, and in localStorage only when the person ticks "Remember on this
 * device" (LLM_KEY_STORAGE, written and erased by ./llmKey.ts).
 */
export interface LlmSettings {
  provider: LlmProviderName;
  feature: LlmFeatureName;
  baseUrl: string;
  model: string;
  concurrency: number;
  /** Per attempt, in seconds. */
  timeoutS: number;
  /** Money per million tokens (0 for a local model). */
  priceIn: number;
  priceOut: number;
  /** Only the templates the person edited (system line and text); the others are the defaults. */
  templates: Partial<Record<TemplateId, { system: string; text: string }>>;
}

export const DEFAULT_LLM_SETTINGS: LlmSettings = Object.freeze({
  provider: LLM_PROVIDER_NAMES[0]!,
  feature: 'contextual',
  baseUrl: 'http://localhost:11434/v1',
  model: 'llama3.2',
  concurrency: 4,
  timeoutS: 60,
  priceIn: 0,
  priceOut: 0,
  templates: {},
});

/** The URL key that carries the LLM settings (JSON of the fields that differ from the defaults). */
export const LLM_URL_KEY = 'llm';
/** Where the LLM settings (never the key) are kept between visits. */
export const LLM_SETTINGS_STORAGE = 'chunkscope.llm-settings.v1';

/** The fields that differ from the defaults (what a link and stored settings hold). */
function changed(settings: LlmSettings): Partial<LlmSettings> {
  const out: Record<string, unknown> = {};
  for (const name of Object.keys(DEFAULT_LLM_SETTINGS)) {
    const value = (settings as unknown as Record<string, unknown>)[name];
    if (name === 'templates') {
      if (Object.keys(value as object).length > 0) out[name] = value;
    } else if (value !== (DEFAULT_LLM_SETTINGS as unknown as Record<string, unknown>)[name]) out[name] = value;
  }
  // Whatever else an object may hold (an apiKey put there by mistake) never leaves: only the named fields above.
  return out as Partial<LlmSettings>;
}

/** `llm=<JSON>` for the URL query, or '' when every setting is the default. */
export function encodeLlmQuery(settings: LlmSettings): string {
  const diff = changed(settings);
  return Object.keys(diff).length === 0 ? '' : `${LLM_URL_KEY}=${encodeURIComponent(JSON.stringify(diff))}`;
}

/** The settings a query's `llm` key or a stored copy holds, checked field by field (unknown or malformed: dropped). */
export function parseLlmSettings(json: string | null): Partial<LlmSettings> {
  if (!json) return {};
  let raw: unknown;
  try {
    raw = JSON.parse(json);
  } catch {
    return {};
  }
  if (!raw || typeof raw !== 'object') return {};
  const r = raw as Record<string, unknown>;
  const out: Partial<LlmSettings> = {};
  if (typeof r.provider === 'string' && (LLM_PROVIDER_NAMES as readonly string[]).includes(r.provider)) out.provider = r.provider as LlmProviderName;
  if (typeof r.feature === 'string' && FEATURE_NAMES.includes(r.feature)) out.feature = r.feature as LlmFeatureName;
  if (typeof r.baseUrl === 'string' && r.baseUrl.length < 2000) out.baseUrl = r.baseUrl;
  if (typeof r.model === 'string' && r.model.length < 300) out.model = r.model;
  const positive = (v: unknown, max: number) => typeof v === 'number' && Number.isFinite(v) && v > 0 && v <= max;
  if (positive(r.concurrency, 64)) out.concurrency = Math.floor(r.concurrency as number);
  if (positive(r.timeoutS, 3600)) out.timeoutS = r.timeoutS as number;
  if (r.priceIn === 0 || positive(r.priceIn, 1e6)) out.priceIn = r.priceIn as number;
  if (r.priceOut === 0 || positive(r.priceOut, 1e6)) out.priceOut = r.priceOut as number;
  if (r.templates && typeof r.templates === 'object') {
    const templates: LlmSettings['templates'] = {};
    for (const [id, t] of Object.entries(r.templates as Record<string, unknown>)) {
      const tt = t as Record<string, unknown> | null;
      if (id in DEFAULT_TEMPLATES && tt && typeof tt.system === 'string' && typeof tt.text === 'string') templates[id as TemplateId] = { system: tt.system, text: tt.text };
    }
    out.templates = templates;
  }
  return out;
}

/** The settings from the page's address (wins) or the stored copy, over the defaults. Never throws. */
export function initialLlmSettings(search: string | undefined, stored: string | null): LlmSettings {
  const fromUrl = search ? new URLSearchParams(search).get(LLM_URL_KEY) : null;
  return { ...DEFAULT_LLM_SETTINGS, ...(fromUrl !== null ? parseLlmSettings(fromUrl) : parseLlmSettings(stored)) };
}

/** What is stored between visits (the same JSON the link carries). */
export function storedLlmSettings(settings: LlmSettings): string {
  return JSON.stringify(changed(settings));
}

/** The templates the runner gets: the edited ones over the defaults (same id and version: the prompt's text is in
 * the cache key, so an edit misses the cache and going back to the default hits it again). */
export function templatesFor(settings: LlmSettings): Partial<Record<string, PromptTemplate>> {
  const out: Partial<Record<string, PromptTemplate>> = {};
  for (const [id, edit] of Object.entries(settings.templates)) {
    const base = DEFAULT_TEMPLATES[id as TemplateId];
    if (base && edit) out[id] = { ...base, system: edit.system, text: edit.text };
  }
  return out;
}

/** True for localhost, 127.0.0.0/8 and ::1 (nothing leaves the machine); false for anything else or a bad URL. */
export function isLoopback(baseUrl: string): boolean {
  let host: string;
  try {
    host = new URL(baseUrl).hostname.toLowerCase();
  } catch {
    return false;
  }
  if (host === 'localhost' || host.endsWith('.localhost')) return true;
  if (host === '[::1]' || host === '::1') return true;
  return /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(host);
}

/** The host a non-loopback endpoint sends the document to (for the warning), or the URL as typed. */
export function endpointHost(baseUrl: string): string {
  try {
    return new URL(baseUrl).host;
  } catch {
    return baseUrl;
  }
}

/** The configuration key of a run: base chunk options and the LLM settings that decide the answers (never the key). */
export function llmConfigKey(chunkOptionsJson: string, settings: LlmSettings): string {
  const { provider, feature, baseUrl, model, templates } = settings;
  return JSON.stringify([chunkOptionsJson, provider, feature, provider === 'prompt-api' ? '' : baseUrl, model, templates]);
}
