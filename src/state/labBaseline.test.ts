import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { denseBelowBm25Note, embedderName, formatPercent, probeStatus, retrieverCaption } from './labBaseline';

describe('honest baselines', () => {
  it('names the built-in model for what it is wherever a retriever embeds', () => {
    expect(retrieverCaption('bm25', 'builtin')).toBe('BM25');
    expect(retrieverCaption('dense', 'builtin')).toBe('Dense · built-in static word vectors');
    expect(retrieverCaption('hybrid', 'builtin')).toBe('Hybrid (RRF) · built-in static word vectors');
    expect(retrieverCaption('dense', 'Xenova/bge-small-en-v1.5')).toBe('Dense · Xenova/bge-small-en-v1.5');
    expect(embedderName('builtin')).toMatch(/static word-vector/);
    expect(embedderName('local/my-model')).toBe('the local model my-model');
  });

  it('says so in one line when dense scores below BM25, and suggests a contextual model', () => {
    const base = { retriever: 'dense', embedder: 'builtin', recall: 0.556, bm25Recall: 0.922 };
    const online = denseBelowBm25Note({ ...base, online: true })!;
    expect(online).toContain('Dense recall 55.6% is below BM25\'s 92.2%');
    expect(online).toMatch(/static word vectors/);
    expect(online).toMatch(/hub/);
    expect(online).toMatch(/local model folder/);
    expect(online).not.toContain('\n');
    const offline = denseBelowBm25Note({ ...base, online: false })!;
    expect(offline).toMatch(/local model folder/);
    expect(offline).toMatch(/offline/);
    // A hub model below BM25: the line names the model, not the built-in one.
    expect(denseBelowBm25Note({ ...base, embedder: 'Xenova/all-MiniLM-L6-v2', online: true })).toContain('with Xenova/all-MiniLM-L6-v2');
    // Nothing to say: dense at or above BM25, BM25 itself, or no figure.
    expect(denseBelowBm25Note({ ...base, recall: 0.93, online: true })).toBeNull();
    expect(denseBelowBm25Note({ ...base, recall: 0.922, online: true })).toBeNull();
    expect(denseBelowBm25Note({ ...base, retriever: 'bm25', online: true })).toBeNull();
    expect(denseBelowBm25Note({ ...base, bm25Recall: Number.NaN, online: true })).toBeNull();
    expect(denseBelowBm25Note({ ...base, retriever: 'hybrid', online: true })).toMatch(/^Hybrid \(RRF\) recall/);
  });

  it('never rounds a share up to 100% or down to 0%', () => {
    expect(formatPercent(0.995)).toBe('99.5%');
    expect(formatPercent(0.9996)).toBe('99.9%');
    expect(formatPercent(1)).toBe('100.0%');
    expect(formatPercent(0)).toBe('0.0%');
    expect(formatPercent(0.0004)).toBe('<0.1%');
    expect(formatPercent(0.894)).toBe('89.4%');
    expect(formatPercent(Number.NaN)).toBe('–');
    fc.assert(
      fc.property(fc.double({ min: 0, max: 1, noNaN: true }), (x) => {
        const shown = formatPercent(x);
        expect(shown === '100.0%').toBe(x >= 1);
        expect(shown === '0.0%').toBe(x <= 0);
      }),
    );
  });

  it('shows the probe ranking as pending, never under the new settings, until their own ranking arrives', () => {
    const bm25 = { query: 'refunds', version: 3, settingsKey: 'bm25' };
    expect(probeStatus(bm25, { query: 'refunds', version: 3, settingsKey: 'bm25' })).toBe('current');
    // Switched to dense: the BM25 ranking stays on screen, marked pending.
    expect(probeStatus(bm25, { query: 'refunds', version: 3, settingsKey: 'dense' })).toBe('pending');
    // Settings the controls refuse: still not the current answer.
    expect(probeStatus(bm25, { query: 'refunds', version: 3, settingsKey: null })).toBe('pending');
    // Another question, another text or no question: nothing of it is shown.
    expect(probeStatus(bm25, { query: 'refund', version: 3, settingsKey: 'bm25' })).toBe('none');
    expect(probeStatus(bm25, { query: 'refunds', version: 4, settingsKey: 'bm25' })).toBe('none');
    expect(probeStatus(bm25, { query: ' ', version: 3, settingsKey: 'bm25' })).toBe('none');
    expect(probeStatus(null, { query: 'refunds', version: 3, settingsKey: 'bm25' })).toBe('none');
  });
});
