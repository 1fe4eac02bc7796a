/**
 * Chrome's built-in model through the Prompt API (`LanguageModel`: availability(), create(), session.prompt() with
 * a responseConstraint JSON schema). Nothing leaves the machine. The object is injected (`settings.languageModel`,
 * default globalThis.LanguageModel), so the adapter is tested with a stub and core touches no browser global.
 */
import { LlmError, type AbortSignalLike, type LlmAnswer, type LlmClient, type LlmProviderDescriptor, type LlmProviderSettings, type LlmRequest } from '../../types';

/** The part of the Prompt API this adapter uses. */
export interface LanguageModelLike {
  availability(options?: Record<string, unknown>): Promise<'unavailable' | 'downloadable' | 'downloading' | 'available' | string>;
  create(options?: {
    initialPrompts?: { role: 'system' | 'user' | 'assistant'; content: string }[];
    signal?: AbortSignalLike;
    monitor?: (target: { addEventListener(type: 'downloadprogress', listener: (event: { loaded: number }) => void): void }) => void;
  }): Promise<LanguageModelSessionLike>;
}

export interface LanguageModelSessionLike {
  prompt(input: string, options?: { responseConstraint?: Record<string, unknown>; signal?: AbortSignalLike }): Promise<string>;
  destroy?(): void;
}

export const promptApi = {
  name: 'prompt-api',
  label: "Chrome's built-in model (Prompt API)",
  help: "the browser's own model (LanguageModel); nothing leaves the machine",
  sendsText: false,
  create: (settings: LlmProviderSettings): LlmClient => new PromptApiClient(settings),
} as const satisfies LlmProviderDescriptor<'prompt-api'>;

class PromptApiClient implements LlmClient {
  readonly provider = 'prompt-api';
  readonly model: string;
  readonly defaultConcurrency = 1;
  private readonly api: LanguageModelLike | undefined;
  private readonly onDownloadProgress: ((fraction: number) => void) | undefined;

  constructor(settings: LlmProviderSettings) {
    this.model = settings.model ?? 'built-in';
    this.onDownloadProgress = settings.onDownloadProgress;
    this.api = (settings.languageModel ?? (globalThis as { LanguageModel?: unknown }).LanguageModel) as LanguageModelLike | undefined;
  }

  /** 'available', 'downloadable', 'downloading' or 'unavailable' (no LanguageModel at all: 'unavailable'). */
  async availability(): Promise<string> {
    return this.api ? this.api.availability() : 'unavailable';
  }

  async complete(request: LlmRequest, signal: AbortSignalLike): Promise<LlmAnswer> {
    const api = this.api;
    if (!api) throw new LlmError('unsupported', 'this browser has no built-in model (LanguageModel): use an endpoint instead');
    const availability = await api.availability();
    if (availability === 'unavailable') throw new LlmError('unsupported', 'the built-in model is unavailable on this device');
    // A fresh session per request: answers never depend on earlier prompts (the cache key holds the whole input).
    const progress = this.onDownloadProgress;
    const session = await api.create({
      ...(request.system ? { initialPrompts: [{ role: 'system', content: request.system }] } : {}),
      // 'downloadable' / 'downloading': create() fetches the model first and reports its progress here.
      ...(progress ? { monitor: (target) => target.addEventListener('downloadprogress', (event) => progress(event.loaded)) } : {}),
      signal,
    });
    try {
      const text = await session.prompt(request.prompt, { ...(request.schema ? { responseConstraint: request.schema } : {}), signal });
      if (text.trim() === '') throw new LlmError('empty', 'the model answered nothing');
      return { text };
    } finally {
      session.destroy?.();
    }
  }
}
