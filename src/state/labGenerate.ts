import { create } from 'zustand';
import type { Alignment } from '../core/llm/align';
import type { LlmCache } from '../core/llm/cache';
import type { FetchLike } from '../core/llm';
import type { Reference } from '../core/eval/types';
import { toChunkOptions } from './chunkOptions';
import { documentFacts } from './jobs';
import { newQuestionId, type GoldenItem } from './labGolden';
import type { AppState } from './store';

/**
 * Generated questions in the page: core's generateGoldenSet (for each sampled chunk the LLM proposes a question and
 * the exact excerpt that answers it; the excerpt is kept only when it aligns to the text exactly or near-exactly)
 * run through the page's LLM settings (endpoint, model, key in memory, timeout) and its IndexedDB answer cache, with
 * progress and Cancel; then each candidate is reviewed — edited, accepted (it joins the golden set marked
 * `generated`) or rejected. Its own small store: nothing here is configuration or stored with the document.
 */

export type CandidateStatus = 'pending' | 'accepted' | 'rejected';

export interface Candidate {
  id: string;
  question: string;
  reference: Reference;
  /** How the excerpt met the text: 'verbatim' or 'normalized' (exact, after whitespace/case folding), or 'tokens' (near-exact: ≥ 90% of its words in order). */
  alignment: { match: Alignment['match']; score: number };
  status: CandidateStatus;
}

export interface GenerateEstimate {
  /** Requests a run makes at most (one per sampled chunk; cached answers are not sent again). */
  requests: number;
  inputTokens: number;
  outputTokens: number;
  /** Money at the LLM panel's prices (null: no price set). */
  cost: number | null;
}

export interface GenerateState {
  count: number;
  phase: 'idle' | 'running' | 'done' | 'cancelled' | 'failed';
  /** Requests started / planned in the running generation. */
  asked: number;
  planned: number;
  message: string | null;
  /** The last run's summary: sampled, kept, dropped (did not align), failed. */
  summary: { sampled: number; kept: number; dropped: number; failed: number } | null;
  candidates: Candidate[];
  /** The document (serial) the candidates' offsets belong to. */
  documentSerial: number | null;
}

export const DEFAULT_GENERATE_COUNT = 10;
export const MAX_GENERATE_COUNT = 200;
/** Expected answer length (a question and a sentence of JSON), for the estimate. */
const EXPECTED_OUTPUT_TOKENS = 60;

const initial = (): GenerateState => ({ count: DEFAULT_GENERATE_COUNT, phase: 'idle', asked: 0, planned: 0, message: null, summary: null, candidates: [], documentSerial: null });

export const useGenerate = create<GenerateState>()(() => initial());

export function resetGenerate(): void {
  running?.abort();
  running = null;
  useGenerate.setState(initial());
}

export function setGenerateCount(count: number): void {
  useGenerate.setState({ count: Math.max(1, Math.min(MAX_GENERATE_COUNT, Math.floor(count))) });
}

/** Why the page cannot generate with the LLM panel's settings (null: it can). */
export function generateUnavailable(s: Pick<AppState, 'llmSettings'>): string | null {
  const l = s.llmSettings;
  if (l.provider === 'prompt-api') return 'Generating questions needs an OpenAI-compatible endpoint: choose one in the LLM panel.';
  if (l.baseUrl.trim() === '' || l.model.trim() === '') return 'Set an endpoint and a model in the LLM panel to generate questions.';
  return null;
}

function documentOf(s: AppState): { id: string; text: string } {
  return { id: s.docName ?? 'document', text: s.text };
}

/** What a generation of `count` questions would send: the sampled chunks' prompts in cl100k tokens. Sends nothing. */
export async function estimateGeneration(s: AppState, count: number): Promise<GenerateEstimate> {
  const [{ chunk }, { sampleSections, GOLDEN_TEMPLATE }, { fillTemplate }, { seededRandom }, { getUnit }] = await Promise.all([
    import('../core/chunk'),
    import('../core/golden/generate'),
    import('../core/llm/templates'),
    import('../core/random'),
    import('../core/units'),
  ]);
  const doc = documentOf(s);
  const chunks = await chunk(doc.text, { ...toChunkOptions(s.config, documentFacts(s)), documentId: doc.id });
  const sections = sampleSections(chunks, count, seededRandom(1));
  const cl100k = await getUnit('cl100k_base');
  let inputTokens = 0;
  for (const section of sections) inputTokens += cl100k.count(GOLDEN_TEMPLATE.system) + cl100k.count(fillTemplate(GOLDEN_TEMPLATE.text, { section: section.text }));
  const outputTokens = sections.length * EXPECTED_OUTPUT_TOKENS;
  const { priceIn, priceOut } = s.llmSettings;
  const cost = priceIn > 0 || priceOut > 0 ? (inputTokens * priceIn + outputTokens * priceOut) / 1e6 : null;
  return { requests: sections.length, inputTokens, outputTokens, cost };
}

let running: AbortController | null = null;

export interface GenerateDeps {
  cache: LlmCache;
  fetch?: FetchLike;
}

/** Generates candidates for the document in the store (replacing the last run's unreviewed ones). Cancel stops it. */
export async function runGeneration(store: { getState(): AppState }, deps: GenerateDeps): Promise<void> {
  cancelGeneration();
  const controller = new AbortController();
  running = controller;
  const s = store.getState();
  const { count } = useGenerate.getState();
  const serial = s.documentSerial;
  const l = s.llmSettings;
  useGenerate.setState((g) => ({ phase: 'running', asked: 0, planned: count, message: null, summary: null, candidates: g.documentSerial === serial ? g.candidates.filter((c) => c.status !== 'pending') : [], documentSerial: serial }));
  // Each request reads the cache first: counting those reads is the progress (cached answers count as done at once).
  const cache: LlmCache = {
    get: (key) => {
      if (running === controller) useGenerate.setState((g) => ({ asked: g.asked + 1 }));
      return deps.cache.get(key);
    },
    set: (key, value) => deps.cache.set(key, value),
  };
  try {
    const { generateGoldenSet } = await import('../core/golden/generate');
    const doc = documentOf(s);
    const { candidates, report } = await generateGoldenSet([doc], {
      provider: l.provider,
      baseUrl: l.baseUrl,
      model: l.model,
      ...(s.llmApiKey !== '' ? { apiKey: s.llmApiKey } : {}),
      cache,
      policy: { timeoutMs: l.timeoutS * 1000 },
      ...(deps.fetch ? { fetch: deps.fetch } : {}),
      signal: controller.signal,
      perDocument: count,
      seed: 1,
      chunkOptions: toChunkOptions(s.config, documentFacts(s)),
    });
    if (running !== controller) return;
    if (store.getState().documentSerial !== serial) {
      useGenerate.setState({ phase: 'cancelled', message: 'The document changed: its candidates were dropped.', candidates: [] });
      return;
    }
    const fresh: Candidate[] = candidates.map((c) => ({ id: newQuestionId(), question: c.question, reference: c.references[0]!, alignment: c.alignment, status: 'pending' }));
    useGenerate.setState((g) => ({
      phase: 'done',
      candidates: [...g.candidates, ...fresh],
      summary: { sampled: report.sampled, kept: report.kept, dropped: report.dropped, failed: report.failed },
      message: report.failed > 0 ? failureLine(report.failuresByKind) : null,
    }));
  } catch (err) {
    if (running !== controller) return;
    const cancelled = (err as Error)?.name === 'AbortError';
    useGenerate.setState({ phase: cancelled ? 'cancelled' : 'failed', message: cancelled ? 'Cancelled: answers received are cached; Generate again resumes from there.' : oneLine(err) });
  } finally {
    if (running === controller) running = null;
  }
}

export function cancelGeneration(): void {
  const r = running;
  running = null;
  if (r) {
    r.abort();
    useGenerate.setState({ phase: 'cancelled', message: 'Cancelled: answers received are cached; Generate again resumes from there.' });
  }
}

function failureLine(byKind: Record<string, number>): string {
  return `Some requests failed: ${Object.entries(byKind)
    .map(([k, n]) => `${n} ${k}`)
    .join(', ')}.`;
}

function oneLine(err: unknown): string {
  return (err instanceof Error ? err.message : String(err)).split('\n')[0]!;
}

// ---- review ----

export function editCandidate(id: string, question: string): void {
  useGenerate.setState((g) => ({ candidates: g.candidates.map((c) => (c.id === id ? { ...c, question } : c)) }));
}

export function rejectCandidate(id: string): void {
  useGenerate.setState((g) => ({ candidates: g.candidates.map((c) => (c.id === id ? { ...c, status: 'rejected' } : c)) }));
}

/** The golden item an accepted candidate becomes: its (edited) question, its aligned span, marked generated. */
export function candidateItem(c: Candidate): GoldenItem {
  return { id: c.id, question: c.question.trim(), references: [{ ...c.reference }], generated: true };
}

/** Accepts a candidate: it joins the golden set (through the lab's import action), marked generated. A blank question is refused. */
export function acceptCandidate(id: string, addToGolden: (items: GoldenItem[]) => void): boolean {
  const c = useGenerate.getState().candidates.find((x) => x.id === id);
  if (!c || c.status !== 'pending' || c.question.trim() === '') return false;
  addToGolden([candidateItem(c)]);
  useGenerate.setState((g) => ({ candidates: g.candidates.map((x) => (x.id === id ? { ...x, status: 'accepted' } : x)) }));
  return true;
}

/** Drops the reviewed candidates from the list (accepted ones stay in the golden set). */
export function clearReviewed(): void {
  useGenerate.setState((g) => ({ candidates: g.candidates.filter((c) => c.status === 'pending') }));
}
