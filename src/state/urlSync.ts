import type { StoreApi } from 'zustand';
import { STRATEGY_NAMES } from '../core/strategies/index';
import { UNIT_NAMES } from '../core/units/index';
import type { Config } from './configSlice';
import type { AppState } from './store';
import { droppedNotice, checkConfig } from './configValidation';
import { strategyPatch } from './strategyInfo';
import { encodeLlmQuery } from './llmSettings';
import { decodePinned, decodeQuery, encodeConfig, encodePinned, hasConfig } from './urlCodec';
import { watch } from './watch';

export { hasConfig } from './urlCodec';

/**
 * URL sync: a shared link's configuration applies over the stored one at start; afterwards the configuration is
 * mirrored into the URL (history.replaceState, off the hot path: once the changes pause for URL_SYNC_DELAY_MS), so the
 * address bar is a shareable link as soon as input settles. Only the config slice is watched.
 */

/** replaceState costs 5-15 ms in Chromium: a pause this long keeps it out of a run of slider or threshold keys. */
export const URL_SYNC_DELAY_MS = 250;

/** `config` with what the query string `search` sets applied over it (unchanged when it sets nothing). */
export function configFromUrl(search: string, config: Config): Config {
  return checkedConfigFromUrl(search, config).config;
}

/**
 * The same, with every value checked through the option table (checkConfig): malformed or refused values are
 * dropped, the rest applied, and one notice names what was dropped (null when nothing was).
 */
export function checkedConfigFromUrl(search: string, config: Config): { config: Config; notice: string | null } {
  if (!hasConfig(search)) return { config, notice: null };
  const { values, malformed } = decodeQuery(search, { strategies: STRATEGY_NAMES, units: UNIT_NAMES });
  // A key a link leaves out means its default, but a strategy that cannot count in the default unit (token windows
  // count tokens) takes its own, as picking it in the page does: a hand-written `?strategy=token` is valid.
  if (values.strategy && !new URLSearchParams(search).has('unit')) {
    const unit = strategyPatch({ ...config, ...values }, values.strategy).unit;
    if (unit) values.unit = unit;
  }
  const checked = checkConfig(values, config, { combinations: true });
  return { config: checked.config, notice: droppedNotice([...new Set([...malformed, ...checked.dropped])], 'link') };
}

/** The lab's pinned configuration A a link carries (see PIN_KEY in urlCodec.ts). */
export function pinnedFromUrl(search: string): Config | null {
  return decodePinned(search, { strategies: STRATEGY_NAMES, units: UNIT_NAMES });
}

export interface UrlTarget {
  location: Pick<Location, 'pathname' | 'hash'>;
  history: Pick<History, 'replaceState' | 'state'>;
}

export function startUrlSync(store: StoreApi<AppState>, target: UrlTarget = window): () => void {
  let timer: ReturnType<typeof setTimeout> | null = null;
  let lastQuery = '';
  const flush = () => {
    timer = null;
    const pinned = encodePinned(store.getState().pinned);
    const llm = encodeLlmQuery(store.getState().llmSettings); // the LLM settings, never the API key
    const query = encodeConfig(store.getState().config) + (pinned ? `&${pinned}` : '') + (llm ? `&${llm}` : '');
    if (query === lastQuery) return;
    lastQuery = query;
    target.history.replaceState(target.history.state, '', `${target.location.pathname}?${query}${target.location.hash}`);
  };
  const schedule = () => {
    if (timer) clearTimeout(timer);
    timer = setTimeout(flush, URL_SYNC_DELAY_MS);
  };
  const unsubscribe = watch(store, (s) => [s.config, s.pinned, s.llmSettings] as const, schedule, (a, b) => a[0] === b[0] && a[1] === b[1] && a[2] === b[2]);
  schedule(); // the start configuration (stored settings, defaults) shows in the URL too
  return () => {
    unsubscribe();
    if (timer) clearTimeout(timer);
  };
}
