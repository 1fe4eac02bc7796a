import { describe, expect, it } from 'vitest';
import { MemoryCache } from '../../cache';
import { runLlmFeature } from '../../run';
import { LlmError } from '../../types';
import { answerText, transformersJs, type ChatMessage, type TextGenerationFactory } from './provider';

const text = 'The keeper lit the lamp at dusk. Ships avoided the reef.\n\nStorms closed the harbour. The ferry stopped in January.';

/** A stub pipeline answering as a chat model does: the conversation with the assistant's JSON appended. */
function stubFactory(calls: { model: string; messages: ChatMessage[] }[] = []): TextGenerationFactory {
  return async (model) => async (messages) => {
    calls.push({ model, messages });
    const passage = /<passage>([\s\S]*?)<\/passage>/.exec(messages[messages.length - 1]!.content)?.[1] ?? '';
    const sentences = passage.match(/[^.]+\./g)?.map((s) => s.trim()) ?? [];
    return [{ generated_text: [...messages, { role: 'assistant', content: '```json\n' + JSON.stringify({ propositions: sentences }) + '\n```' }] }];
  };
}

describe('transformers-js provider (a stub pipeline; no real model here)', () => {
  it('runs a feature: system and prompt as chat messages, the assistant message read as the answer, cached under its name', async () => {
    const calls: { model: string; messages: ChatMessage[] }[] = [];
    const cache = new MemoryCache();
    const llm = { feature: 'propositions', provider: 'transformers-js', model: 'onnx-community/tiny', textGeneration: stubFactory(calls), cache };
    const { chunks, report } = await runLlmFeature(text, { size: 60, overlap: 0, unit: 'chars' }, llm);
    expect(report).toMatchObject({ provider: 'transformers-js', model: 'onnx-community/tiny', sent: report.requests, failed: 0 });
    expect(calls[0]!.model).toBe('onnx-community/tiny');
    expect(calls[0]!.messages.map((m) => m.role)).toEqual(['system', 'user']);
    expect(chunks.length).toBeGreaterThan(0);
    expect(chunks.every((c) => c.metadata.supportStatus === 'exact')).toBe(true);
    const again = await runLlmFeature(text, { size: 60, overlap: 0, unit: 'chars' }, llm);
    expect(again.report).toMatchObject({ cached: report.requests, sent: 0 });
    expect(transformersJs.sendsText).toBe(false);
  });

  it('a model that cannot load is a one-line unsupported failure on every request; the run goes on', async () => {
    const failing: TextGenerationFactory = async () => {
      throw new Error('fetch failed (offline)');
    };
    const { report } = await runLlmFeature(text, { size: 60, overlap: 0, unit: 'chars' }, { feature: 'propositions', provider: 'transformers-js', textGeneration: failing });
    expect(report.failed).toBe(report.requests);
    expect(report.failuresByKind).toEqual({ unsupported: report.requests });
    expect(report.failures[0]!.reason).toMatch(/could not be loaded: fetch failed \(offline\)/);
  });

  it('answers a timeout at once though generation cannot be interrupted', async () => {
    const slow: TextGenerationFactory = async () => () => new Promise((resolve) => setTimeout(() => resolve([{ generated_text: '{"propositions": []}' }]), 5_000));
    const t0 = Date.now();
    const { report } = await runLlmFeature('One sentence.', {}, { feature: 'propositions', provider: 'transformers-js', textGeneration: slow, policy: { timeoutMs: 50, retries: 0 } });
    expect(Date.now() - t0).toBeLessThan(2_000);
    expect(report.failuresByKind).toEqual({ timeout: 1 });
  });

  it('reads plain-string and chat outputs; an empty answer is an error', async () => {
    expect(answerText([{ generated_text: '{"a":1}' }])).toBe('{"a":1}');
    expect(answerText({ generated_text: [{ role: 'user', content: 'q' }, { role: 'assistant', content: 'x' }] })).toBe('x');
    expect(answerText([{ generated_text: [{ role: 'user', content: 'q' }] }])).toBe('');
    const empty: TextGenerationFactory = async () => async () => [{ generated_text: '' }];
    const client = transformersJs.create({ textGeneration: empty });
    await expect(client.complete({ prompt: 'p' }, { aborted: false, addEventListener() {}, removeEventListener() {} })).rejects.toThrow(LlmError);
  });
});
