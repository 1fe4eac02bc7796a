import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { formatGoldenSet, parseGoldenSet } from '../core/eval/golden';
import { MemoryCache } from '../core/llm/cache';
import { startFakeLlmServer, type FakeLlmServer } from '../testing/fakeLlmServer';
import { parseStoredGolden, serializeGolden, toGoldenQuestions } from './labGolden';
import { acceptCandidate, cancelGeneration, estimateGeneration, generateUnavailable, rejectCandidate, resetGenerate, runGeneration, setGenerateCount, useGenerate } from './labGenerate';
import { resetStore, useStore } from './store';

// The page's generated questions against the project's fake OpenAI-compatible server on loopback (it answers a
// golden-section prompt with the section's first sentence as the excerpt): real core generation, real alignment.

let server: FakeLlmServer;
beforeAll(async () => {
  server = await startFakeLlmServer(0);
});
afterAll(() => server.close());

const paragraphs = [
  'Refunds are issued within thirty days of purchase when the original receipt is shown. Late claims are refused.',
  'Gift cards cannot be refunded or exchanged for cash under any circumstances. They never expire.',
  'Shipping is free for orders above fifty euros. Otherwise a flat fee of four euros applies to every parcel.',
  'Our support team answers email within two working days. Phone calls are picked up at once.',
];
const text = paragraphs.join('\n\n');

beforeEach(() => {
  resetStore();
  resetGenerate();
  server.requests.length = 0;
  server.delayMs = 0;
  const s = useStore.getState();
  s.setDocument(text, { name: 'policy.md' });
  s.setConfig({ strategy: 'recursive', size: 120, overlap: 0, unit: 'chars' });
  s.setLlmSettings({ provider: 'openai-compatible', baseUrl: server.baseUrl, model: 'fake' });
});

describe('generated questions in the page', () => {
  it('estimates without sending, generates aligned candidates, and accepted ones join the golden set marked generated', async () => {
    setGenerateCount(3);
    const estimate = await estimateGeneration(useStore.getState(), 3);
    expect(estimate.requests).toBe(3);
    expect(estimate.inputTokens).toBeGreaterThan(0);
    expect(server.requests).toHaveLength(0);

    await runGeneration(useStore, { cache: new MemoryCache() });
    const g = useGenerate.getState();
    expect(g.phase).toBe('done');
    expect(server.requests).toHaveLength(3);
    expect(g.summary).toMatchObject({ sampled: 3, kept: 3, dropped: 0 });
    expect(g.asked).toBe(3);
    for (const c of g.candidates) {
      expect(text.slice(c.reference.start, c.reference.end)).toBe(c.reference.content);
      expect(c.alignment.match).not.toBe('tokens');
    }
    const [first, second] = g.candidates;
    rejectCandidate(second!.id);
    expect(acceptCandidate(first!.id, useStore.getState().importQuestions)).toBe(true);
    expect(acceptCandidate(first!.id, useStore.getState().importQuestions)).toBe(false); // once
    const golden = useStore.getState().golden;
    expect(golden).toHaveLength(1);
    expect(golden[0]).toMatchObject({ question: first!.question, generated: true, references: [first!.reference] });
    expect(useGenerate.getState().candidates.map((c) => c.status)).toEqual(['accepted', 'rejected', 'pending']);
    // The mark stays: stored with the document, exported as JSON/JSONL, read back.
    expect(parseStoredGolden(serializeGolden(golden))).toMatchObject([{ generated: true }]);
    const jsonl = formatGoldenSet(toGoldenQuestions(golden), 'jsonl');
    expect(JSON.parse(jsonl)).toMatchObject({ generated: true });
    expect(parseGoldenSet(jsonl, { format: 'jsonl' })[0]!.generated).toBe(true);
    expect(JSON.parse(formatGoldenSet(toGoldenQuestions([{ ...golden[0]!, generated: undefined }]), 'json'))[0]).not.toHaveProperty('generated');
  });

  it('an edited question is what joins the set; a blank one is refused', async () => {
    setGenerateCount(1);
    await runGeneration(useStore, { cache: new MemoryCache() });
    const c = useGenerate.getState().candidates[0]!;
    useGenerate.setState({ candidates: [{ ...c, question: '   ' }] });
    expect(acceptCandidate(c.id, useStore.getState().importQuestions)).toBe(false);
    useGenerate.setState({ candidates: [{ ...c, question: 'When are refunds issued?' }] });
    expect(acceptCandidate(c.id, useStore.getState().importQuestions)).toBe(true);
    expect(useStore.getState().golden[0]!.question).toBe('When are refunds issued?');
  });

  it('an invented excerpt is dropped and counted; answers are cached (a second run sends nothing)', async () => {
    setGenerateCount(2);
    const cache = new MemoryCache();
    server.failNext('invent', 1);
    await runGeneration(useStore, { cache });
    expect(useGenerate.getState().summary).toMatchObject({ sampled: 2, kept: 1, dropped: 1 });
    const sent = server.requests.length;
    await runGeneration(useStore, { cache });
    expect(server.requests.length).toBe(sent);
  });

  it('Cancel stops a running generation and says so', async () => {
    server.delayMs = 400;
    setGenerateCount(4);
    const run = runGeneration(useStore, { cache: new MemoryCache() });
    await new Promise((r) => setTimeout(r, 100));
    expect(useGenerate.getState().phase).toBe('running');
    cancelGeneration();
    await run;
    expect(useGenerate.getState().phase).toBe('cancelled');
    expect(useGenerate.getState().message).toMatch(/^Cancelled/);
    expect(useGenerate.getState().candidates).toHaveLength(0);
  });

  it('a failing endpoint is one line, not a blank panel', async () => {
    useStore.getState().setLlmSettings({ baseUrl: 'http://127.0.0.1:9/v1', timeoutS: 2 });
    setGenerateCount(1);
    await runGeneration(useStore, { cache: new MemoryCache() });
    const g = useGenerate.getState();
    expect(g.phase === 'done' ? g.summary!.failed : 1).toBe(1);
    expect(g.message).not.toBeNull();
    expect(g.message).not.toContain('\n');
  });

  it("needs an endpoint: Chrome's built-in model cannot generate", () => {
    expect(generateUnavailable(useStore.getState())).toBeNull();
    expect(generateUnavailable({ llmSettings: { ...useStore.getState().llmSettings, provider: 'prompt-api' } })).toMatch(/OpenAI-compatible endpoint/);
  });
});
