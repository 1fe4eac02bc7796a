/**
 * A transformers.js text-generation model (an ONNX model from the Hugging Face hub, e.g.
 * `onnx-community/Qwen2.5-0.5B-Instruct`), run where the code runs: WebGPU when the runtime has it, else WASM/CPU.
 * Nothing leaves the machine once the model is downloaded (the download needs the hub). There is no JSON-schema
 * constraint: the features' prompts ask for JSON and the answer is read tolerantly. The generator is injectable
 * (`settings.textGeneration`, a factory from model id to a pipeline), so the adapter is tested with a stub; by default
 * @huggingface/transformers is imported on the first request. Not exercised with a real model here.
 */
import { LlmError, type AbortSignalLike, type LlmAnswer, type LlmClient, type LlmProviderDescriptor, type LlmProviderSettings, type LlmRequest } from '../../types';

export type ChatMessage = { role: 'system' | 'user' | 'assistant'; content: string };

/** The part of a transformers.js text-generation pipeline this adapter uses. */
export type TextGenerationLike = (
  messages: ChatMessage[],
  options: { max_new_tokens: number; do_sample: boolean },
) => Promise<{ generated_text: string | ChatMessage[] }[] | { generated_text: string | ChatMessage[] }>;

/** Loads a model's pipeline (progress in [0, 1] while its files download). */
export type TextGenerationFactory = (model: string, onProgress?: (fraction: number) => void) => Promise<TextGenerationLike>;

export const DEFAULT_TEXT_GENERATION_MODEL = 'onnx-community/Qwen2.5-0.5B-Instruct';

/** One pipeline per model for the life of the process or page (loading takes seconds to minutes). */
const loaded = new Map<string, Promise<TextGenerationLike>>();

/** The default factory: @huggingface/transformers, loaded lazily; WebGPU where the runtime has navigator.gpu. */
const transformersFactory: TextGenerationFactory = async (model, onProgress) => {
  const { pipeline } = await import('@huggingface/transformers');
  const webgpu = (globalThis as { navigator?: { gpu?: unknown } }).navigator?.gpu !== undefined;
  const generator = await pipeline('text-generation', model, {
    ...(webgpu ? { device: 'webgpu' as const } : {}),
    dtype: 'q4',
    progress_callback: (event: { status?: string; progress?: number }) => {
      if (event.status === 'progress' && typeof event.progress === 'number') onProgress?.(event.progress / 100);
    },
  });
  return generator as unknown as TextGenerationLike;
};

export const transformersJs = {
  name: 'transformers-js',
  label: 'transformers.js model (in this browser or process)',
  help: 'a text-generation ONNX model from the Hugging Face hub, run locally with transformers.js (WebGPU where there is one); JSON is asked for in the prompt',
  sendsText: false,
  create: (settings: LlmProviderSettings): LlmClient => new TransformersJsClient(settings),
} as const satisfies LlmProviderDescriptor<'transformers-js'>;

class TransformersJsClient implements LlmClient {
  readonly provider = 'transformers-js';
  readonly model: string;
  readonly defaultConcurrency = 1;
  private readonly factory: TextGenerationFactory;
  private readonly onProgress: ((fraction: number) => void) | undefined;

  constructor(settings: LlmProviderSettings) {
    this.model = settings.model ?? DEFAULT_TEXT_GENERATION_MODEL;
    this.factory = (settings.textGeneration as TextGenerationFactory | undefined) ?? transformersFactory;
    this.onProgress = settings.onDownloadProgress;
  }

  private generator(): Promise<TextGenerationLike> {
    const key = this.factory === transformersFactory ? this.model : null;
    if (key === null) return this.factory(this.model, this.onProgress);
    let found = loaded.get(key);
    if (!found) {
      found = this.factory(this.model, this.onProgress);
      loaded.set(key, found);
      // A failed load is not kept: the next request tries again.
      found.catch(() => loaded.delete(key));
    }
    return found;
  }

  async complete(request: LlmRequest, signal: AbortSignalLike): Promise<LlmAnswer> {
    if (signal.aborted) throw abortError();
    let generate: TextGenerationLike;
    try {
      generate = await this.generator();
    } catch (err) {
      throw new LlmError('unsupported', `the model ${this.model} could not be loaded: ${(err as Error)?.message ?? String(err)}`);
    }
    if (signal.aborted) throw abortError();
    const messages: ChatMessage[] = [...(request.system ? [{ role: 'system' as const, content: request.system }] : []), { role: 'user', content: request.prompt }];
    // Generation cannot be interrupted: a Cancel or a timeout answers at once and the result is dropped.
    const output = await untilAborted(generate(messages, { max_new_tokens: request.maxTokens ?? 512, do_sample: false }), signal);
    const text = answerText(output);
    if (text.trim() === '') throw new LlmError('empty', 'the model answered nothing');
    return { text };
  }
}

/** The new text: a chat input comes back as the conversation with the assistant's message last. */
export function answerText(output: Awaited<ReturnType<TextGenerationLike>>): string {
  const first = Array.isArray(output) ? output[0] : output;
  const generated = first?.generated_text;
  if (typeof generated === 'string') return generated;
  if (Array.isArray(generated)) return generated[generated.length - 1]?.role === 'assistant' ? generated[generated.length - 1]!.content : '';
  return '';
}

function untilAborted<T>(work: Promise<T>, signal: AbortSignalLike): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(abortError());
    signal.addEventListener('abort', onAbort, { once: true });
    work.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}

function abortError(): Error {
  const err = new Error('cancelled');
  err.name = 'AbortError';
  return err;
}
