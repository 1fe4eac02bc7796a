import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { MemoryCache } from '../../core/llm';
import type { Chunk } from '../../core/types';
import { INVENTED_PROPOSITION, startFakeLlmServer, type FakeLlmServer } from '../../testing/fakeLlmServer';
import { LlmController } from '../../state/llmController';
import { selectLlmInEditor } from '../../state/llmEditor';
import type { PaintableResult } from '../../state/resultsSlice';
import { resetStore, useStore } from '../../state/store';
import { policyHandbook } from '../samples/policyHandbook';
import { buildDecorations, type OffsetToPosition } from './decorations';
import { llmDecorations, llmHoverDecorations, llmPaintable, unsupportedByPassage } from './llmDecorations';

/** Offsets to 1-based line/column the way Monaco counts them (as in decorations.test.ts). */
function positions(text: string): OffsetToPosition & { offsetOf(p: { startLineNumber: number; startColumn: number }): number } {
  const lineStarts = [0];
  for (let i = 0; i < text.length; i++) if (text[i] === '\n') lineStarts.push(i + 1);
  return {
    getPositionAt(offset: number) {
      let line = 0;
      while (line + 1 < lineStarts.length && lineStarts[line + 1]! <= offset) line++;
      return { lineNumber: line + 1, column: offset - lineStarts[line]! + 1 };
    },
    offsetOf: (p) => lineStarts[p.startLineNumber - 1]! + p.startColumn - 1,
  };
}

/** A base result painted from the same text (the drawing reads only its arrays and text). */
function baseResult(text: string, chunks: readonly Chunk[]): PaintableResult {
  const n = chunks.length;
  return {
    jobId: 1,
    version: 1,
    documentSerial: 1,
    starts: Int32Array.from(chunks.map((c) => c.start)),
    ends: Int32Array.from(chunks.map((c) => c.end)),
    sizes: Float64Array.from(chunks.map((c) => c.end - c.start)),
    overlaps: new Int32Array(Math.max(0, n - 1)),
    oversize: new Uint8Array(n),
    contentDiffers: new Uint8Array(n),
    stats: { count: n, min: 0, median: 0, mean: 0, max: 0, overLimit: 0 },
    limit: 800,
    unit: 'chars',
    elapsedMs: 0,
    text,
    requestedAt: 0,
    options: {},
  };
}

/** Real runs of the page's controller against the project's fake OpenAI-compatible server (no real model). */
describe('the LLM run drawn in the editor', () => {
  let server: FakeLlmServer;
  beforeAll(async () => {
    server = await startFakeLlmServer();
  });
  afterAll(() => server.close());
  beforeEach(() => {
    resetStore();
    const s = useStore.getState();
    s.setDocument(policyHandbook, { name: 'employee-handbook.md', pageStarts: null });
    s.setConfig({ strategy: 'recursive', size: 800 });
    s.setLlmSettings({ baseUrl: server.baseUrl, model: 'fake', feature: 'contextual', concurrency: 2 });
  });
  const run = async () => {
    await new LlmController({ store: useStore, cache: new MemoryCache() }).run();
    return useStore.getState().llmResult!;
  };

  it('contextual: each context is injected text collapsed at its chunk’s first character, after the chunk’s own marks; the source is untouched', async () => {
    const result = await run();
    const shown = selectLlmInEditor(useStore.getState());
    expect(shown).toBe(result);
    const model = positions(policyHandbook);
    const base = baseResult(policyHandbook, result.chunks);
    const decorations = buildDecorations(model, base, 0, base.starts.length);
    const own = decorations.length;
    llmDecorations(model, shown!, 0, policyHandbook.length, {}, decorations);
    const added = decorations.slice(own);
    expect(added).toHaveLength(result.chunks.length);
    added.forEach((d, i) => {
      const chunk = result.chunks[i]!;
      // Collapsed (zero width): it covers no source character, so it can never be read as source.
      expect(d.range.startLineNumber).toBe(d.range.endLineNumber);
      expect(d.range.startColumn).toBe(d.range.endColumn);
      expect(model.offsetOf(d.range)).toBe(chunk.start);
      expect(d.options.before?.inlineClassName).toBe('cs-injected cs-llm-context');
      expect(d.options.before?.content).toBe(`⤷ ${String(chunk.metadata.context).replace(/\s+/g, ' ').trim()} `);
      expect(d.options.before?.content).toMatch(/^⤷ Context: this chunk begins with /);
      expect(chunk.text).toBe(policyHandbook.slice(chunk.start, chunk.end));
    });
    // Collapsed view (projector, or the "injected text" toggle off): a short mark.
    const collapsed: typeof decorations = [];
    llmDecorations(model, shown!, 0, policyHandbook.length, { injectedCollapsed: true }, collapsed);
    expect(collapsed.every((d) => d.options.before?.content === '⤷ context ')).toBe(true);
    // The painted window: only the contexts whose chunk starts inside it.
    const windowed: typeof decorations = [];
    const [, second, third] = result.chunks;
    llmDecorations(model, shown!, second!.start, third!.start, {}, windowed);
    expect(windowed.map((d) => model.offsetOf(d.range))).toEqual([second!.start, third!.start]);
  });

  it('is drawn only for this document, these options and these LLM settings, and while "Show in the editor" is on', async () => {
    const result = await run();
    const s = () => useStore.getState();
    expect(selectLlmInEditor(s())).toBe(result);
    s().setLlmInEditor(false);
    expect(selectLlmInEditor(s())).toBeNull();
    s().setLlmInEditor(true);
    s().setConfig({ size: 600 });
    expect(selectLlmInEditor(s()), 'other chunk options').toBeNull();
    s().setConfig({ size: 800 });
    expect(selectLlmInEditor(s())).toBe(result);
    s().setLlmSettings({ model: 'another' });
    expect(selectLlmInEditor(s()), 'another model').toBeNull();
    s().setLlmSettings({ model: 'fake' });
    expect(selectLlmInEditor(s())).toBe(result);
    s().setDocument(`${policyHandbook} `, { name: null, pageStarts: null });
    expect(selectLlmInEditor(s()), 'another text').toBeNull();
  });

  it('propositions: hovering one marks its support spans; an unsupported one outlines its passage, which stays flagged', async () => {
    useStore.getState().setLlmSettings({ feature: 'propositions', concurrency: 1 });
    server.failNext('invent', 1);
    const result = await run();
    const model = positions(policyHandbook);
    const invented = result.chunks.filter((c) => c.metadata.supportStatus === 'unsupported');
    expect(invented.map((c) => c.content)).toEqual([INVENTED_PROPOSITION]);
    const flags: ReturnType<typeof buildDecorations> = [];
    llmDecorations(model, result, 0, policyHandbook.length, {}, flags);
    const passage = invented[0]!.metadata.derivedFrom as { start: number; end: number };
    expect(flags).toHaveLength(1);
    expect(model.offsetOf(flags[0]!.range)).toBe(passage.start);
    expect(flags[0]!.options.before).toMatchObject({ content: '⚠ 1 unsupported proposition ', inlineClassName: 'cs-llm-unsupported' });

    const exact = result.chunks.find((c) => c.metadata.supportStatus === 'exact')!;
    const support = exact.metadata.support as { start: number; end: number }[];
    const hovered = llmHoverDecorations(model, { support, passage: exact.metadata.derivedFrom as { start: number; end: number } }, policyHandbook.length);
    expect(hovered.decorations.map((d) => [model.offsetOf(d.range), d.options.className])).toEqual(support.map((r) => [r.start, 'cs-llm-support']));
    expect(hovered.reveal).toEqual(support[0]);
    // What the proposition says is the source there (the fake restates a sentence).
    expect(policyHandbook.slice(support[0]!.start, support[0]!.end).replace(/\s+/g, ' ')).toBe(exact.content.replace(/\s+/g, ' '));

    const none = llmHoverDecorations(model, { support: [], passage }, policyHandbook.length);
    expect(none.decorations).toHaveLength(1);
    expect(none.decorations[0]!.options.className).toBe('cs-llm-no-support');
    expect(none.reveal).toEqual(passage);
    expect(llmHoverDecorations(model, null, policyHandbook.length)).toEqual({ decorations: [], reveal: null });
  });

  it('boundaries: the model’s chunks are drawn as the chunks (bands and index labels at their starts)', async () => {
    useStore.getState().setLlmSettings({ feature: 'boundaries' });
    const result = await run();
    expect(result.chunks.length).toBeGreaterThan(1);
    const base = baseResult(policyHandbook, [{ start: 0, end: policyHandbook.length } as Chunk]);
    const drawn = llmPaintable(base, result.chunks);
    expect(llmPaintable(base, result.chunks), 'memoised per run').toBe(drawn);
    const model = positions(policyHandbook);
    const labels = buildDecorations(model, drawn).filter((d) => d.options.before?.inlineClassName?.startsWith('cs-chunk-label'));
    expect(labels.map((d) => model.offsetOf(d.range))).toEqual(result.chunks.map((c) => c.start));
    expect(labels.map((d) => d.options.before?.content)).toEqual(result.chunks.map((_, i) => String(i)));
    expect(drawn.overlaps).toHaveLength(result.chunks.length - 1);
  });
});

describe('unsupportedByPassage', () => {
  it('counts each passage’s unsupported propositions, in source order (property)', () => {
    const arbChunk = fc.record({ passage: fc.nat(20), status: fc.constantFrom('exact', 'fuzzy', 'unsupported') });
    fc.assert(
      fc.property(fc.array(arbChunk, { maxLength: 40 }), (items) => {
        const chunks = items.map(({ passage, status }, i) => ({ id: String(i), start: 0, end: 0, metadata: { derivedFrom: { start: passage * 10, end: passage * 10 + 5 }, supportStatus: status } }) as unknown as Chunk);
        const counted = unsupportedByPassage(chunks);
        expect(counted.reduce((sum, [, n]) => sum + n, 0)).toBe(items.filter((x) => x.status === 'unsupported').length);
        expect(counted.map(([r]) => r.start)).toEqual([...new Set(items.filter((x) => x.status === 'unsupported').map((x) => x.passage * 10))].sort((a, b) => a - b));
      }),
    );
  });
});
