import type { StoreApi } from 'zustand';
import { estimateLlmRun, runLlmFeature, type FetchLike, type LlmCache, type LlmOptions } from '../core/llm';
import { toChunkOptions } from './chunkOptions';
import { documentFacts } from './jobs';
import { llmConfigKey, templatesFor } from './llmSettings';
import { IDLE_RUN } from './llmSlice';
import type { AppState } from './store';
import { sameItems, watch } from './watch';

/**
 * The page's LLM runs, on the main thread: core's estimateLlmRun / runLlmFeature over fetch (or Chrome's
 * LanguageModel), answers cached in IndexedDB (./llmIdbCache.ts). The page stays responsive because the waiting is
 * network I/O; the CPU work (base chunking, alignment of the answers) is the engine's and takes milliseconds on a
 * page-sized document. Nothing is sent on a slider move: a move only re-estimates (sending nothing), and when every
 * answer of the new configuration is already cached it redraws them at once with a fetch that refuses to send.
 */

export interface LlmControllerDeps {
  store: StoreApi<AppState>;
  cache: LlmCache;
  /** Default globalThis.fetch. */
  fetch?: FetchLike;
  /** Default globalThis.LanguageModel. */
  languageModel?: unknown;
  now?: () => number;
  /** The pause after a change before the estimate is recomputed (ms). */
  estimateDelayMs?: number;
}

/** A fetch that sends nothing: a cache-only redraw must not reach the network even if an answer went missing. */
const refuseToSend: FetchLike = () => Promise.reject(new TypeError('not sent: this redraw uses cached answers only'));
const noModel = { availability: async () => 'unavailable' };

export class LlmController {
  private running: AbortController | null = null;
  private estimateTimer: ReturnType<typeof setTimeout> | null = null;
  private estimateSerial = 0;
  private readonly now: () => number;

  constructor(private readonly deps: LlmControllerDeps) {
    this.now = deps.now ?? (() => performance.now());
  }

  /** The configuration key of what a Run would do now (base options + LLM settings, never the key). */
  configKey(state: AppState = this.deps.store.getState()): string {
    return llmConfigKey(JSON.stringify(toChunkOptions(state.config, documentFacts(state))), state.llmSettings);
  }

  private options(state: AppState, extra: Partial<LlmOptions> = {}): LlmOptions {
    const s = state.llmSettings;
    const endpoint = s.provider !== 'prompt-api';
    return {
      feature: s.feature,
      provider: s.provider,
      ...(endpoint ? { baseUrl: s.baseUrl, concurrency: s.concurrency } : {}),
      model: endpoint ? s.model : 'built-in',
      ...(endpoint && state.llmApiKey !== '' ? { apiKey: state.llmApiKey } : {}),
      cache: this.deps.cache,
      policy: { timeoutMs: s.timeoutS * 1000 },
      templates: templatesFor(s),
      fetch: this.deps.fetch,
      languageModel: this.deps.languageModel ?? (globalThis as { LanguageModel?: unknown }).LanguageModel,
      ...extra,
    };
  }

  /** Recomputes the estimate now (sends nothing); a redraw from the cache follows when every answer is there. */
  async estimate(): Promise<void> {
    const serial = ++this.estimateSerial;
    const state = this.deps.store.getState();
    const configKey = this.configKey(state);
    const s = state.llmSettings;
    try {
      const estimate = await estimateLlmRun(state.text, toChunkOptions(state.config, documentFacts(state)), this.options(state), { inputPerMillion: s.priceIn, outputPerMillion: s.priceOut });
      if (serial !== this.estimateSerial) return;
      state.setLlmEstimate({ configKey, estimate });
      const now = this.deps.store.getState();
      const shown = now.llmResult?.configKey === configKey && now.llmResult.documentSerial === now.documentSerial;
      if (estimate.requests > 0 && estimate.cached === estimate.requests && !shown && !this.running) await this.run({ cacheOnly: true });
    } catch (err) {
      if (serial === this.estimateSerial) state.setLlmEstimate({ configKey, error: oneLine(err) });
    }
  }

  /** The estimate is shown (and kept fresh) only while the panel is open. */
  private refreshEstimate(): void {
    if (this.deps.store.getState().llmOpen) this.scheduleEstimate();
  }

  scheduleEstimate(): void {
    if (this.estimateTimer) clearTimeout(this.estimateTimer);
    this.estimateTimer = setTimeout(() => {
      this.estimateTimer = null;
      void this.estimate();
    }, this.deps.estimateDelayMs ?? 300);
  }

  /** Runs the feature (Run). `cacheOnly`: redraw from cached answers, sending nothing. */
  async run({ cacheOnly = false }: { cacheOnly?: boolean } = {}): Promise<void> {
    const { store } = this.deps;
    this.cancel();
    const controller = new AbortController();
    this.running = controller;
    const state = store.getState();
    const serial = state.documentSerial;
    const configKey = this.configKey(state);
    const s = state.llmSettings;
    state.setLlmRun({ ...IDLE_RUN, phase: 'running', startedAt: this.now() });
    const counted = this.countingFetch(cacheOnly ? refuseToSend : (this.deps.fetch ?? ((url, init) => globalThis.fetch(url, init as RequestInit))));
    try {
      const { chunks, report } = await runLlmFeature(
        state.text,
        toChunkOptions(state.config, documentFacts(state)),
        this.options(state, {
          fetch: counted,
          ...(cacheOnly ? { languageModel: noModel } : {}),
          signal: controller.signal,
          onRequestDone: (done, total) => store.getState().setLlmRun({ done, total }),
          onDownloadProgress: (download) => store.getState().setLlmRun({ download }),
        }),
      );
      if (this.running !== controller) return;
      const cost = (report.usage.input * s.priceIn + report.usage.output * s.priceOut) / 1e6;
      const now = store.getState();
      if (now.documentSerial === serial) now.setLlmResult({ documentSerial: serial, configKey, feature: s.feature, chunks, report, cost, source: state.text });
      now.setLlmRun({ phase: 'idle', done: report.requests, total: report.requests, sent: report.sent, message: null });
      if (!cacheOnly) this.refreshEstimate(); // the estimate now counts the answers as cached
    } catch (err) {
      if (this.running !== controller) return;
      const cancelled = (err as Error)?.name === 'AbortError';
      store.getState().setLlmRun({ phase: cancelled ? 'cancelled' : 'failed', message: cancelled ? 'Cancelled: what was answered is cached; Run again resumes from there.' : oneLine(err) });
      this.refreshEstimate();
    } finally {
      if (this.running === controller) this.running = null;
    }
  }

  /** Cancel: aborts the requests in flight (answers already received stay cached). */
  cancel(): void {
    const running = this.running;
    this.running = null;
    running?.abort();
    if (running) {
      const state = this.deps.store.getState();
      state.setLlmRun({ phase: 'cancelled', message: 'Cancelled: what was answered is cached; Run again resumes from there.' });
      this.refreshEstimate();
    }
  }

  get busy(): boolean {
    return this.running !== null;
  }

  /** The fetch the provider gets, counting the tokens each answer reports (the progress line's "tokens so far"). */
  private countingFetch(fetch: FetchLike): FetchLike {
    const { store } = this.deps;
    return async (url, init) => {
      store.getState().setLlmRun({ sent: store.getState().llmRun.sent + 1 });
      const response = await fetch(url, init);
      return {
        ok: response.ok,
        status: response.status,
        statusText: response.statusText,
        headers: response.headers,
        text: async () => {
          const text = await response.text();
          const usage = readUsage(text);
          if (usage) {
            const run = store.getState().llmRun;
            store.getState().setLlmRun({ tokensIn: run.tokensIn + usage.input, tokensOut: run.tokensOut + usage.output });
          }
          return text;
        },
      };
    };
  }

  /** Subscriptions: a run stops with its document, the estimate is kept fresh while the panel is open (the
   * settings' storage and the result's clearing are ./llmSync.ts's, which runs without this module). */
  start(): () => void {
    const { store } = this.deps;
    const stops = [
      watch(store, (s) => s.documentSerial, () => {
        this.cancel();
        store.getState().setLlmRun(IDLE_RUN);
      }),
      watch(
        store,
        (s) => [s.llmOpen, s.text, s.config, s.llmSettings] as const,
        () => {
          if (store.getState().llmOpen) this.scheduleEstimate();
        },
        sameItems,
      ),
    ];
    if (store.getState().llmOpen) this.scheduleEstimate();
    return () => {
      for (const stop of stops) stop();
      if (this.estimateTimer) clearTimeout(this.estimateTimer);
      this.cancel();
    };
  }
}

function readUsage(text: string): { input: number; output: number } | null {
  try {
    const usage = (JSON.parse(text) as { usage?: { prompt_tokens?: number; completion_tokens?: number } }).usage;
    return usage ? { input: usage.prompt_tokens ?? 0, output: usage.completion_tokens ?? 0 } : null;
  } catch {
    return null;
  }
}

function oneLine(err: unknown): string {
  return (err instanceof Error ? err.message : String(err)).split('\n')[0]!;
}
