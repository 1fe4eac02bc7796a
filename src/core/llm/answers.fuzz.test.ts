/**
 * Fuzz of model answers (docs/input.md, issue 29): whatever a model answers — invalid or huge JSON, code fences,
 * wrong shapes, ids out of range, HTML and script — every feature finishes, every chunk keeps the chunk contract
 * (`text === source.slice(start, end)`), the model's text stays plain text in `content`/`metadata`, never in
 * `text`, and each request is counted once as a success or a failure. Seeded; CHUNKSCOPE_FUZZ_RUNS runs more.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { LLM_FEATURE_NAMES, runLlmFeature, type FetchLike } from './index';

const SOURCE = [
  '# Leave policy',
  '',
  'Employees get 25 days of paid leave a year. Unused days carry over until March.',
  '',
  '## Sick leave',
  '',
  'Report sickness before 10:00 on the first day. A doctor\'s note is needed after three days.',
  '',
  'Questions go to People Operations <people@example.com>.',
].join('\n');

const HOSTILE = ['<script>alert(1)</script>', '<img src=x onerror=alert(1)>', '"><svg onload=alert(1)>', '\u0000', '\ufeff', '🙂', '{{', ']]'];

/** What a model may answer: JSON of the expected shapes with hostile values, JSON of other shapes, fenced JSON, prose, huge text. */
const answer: fc.Arbitrary<string> = fc.oneof(
  fc.array(fc.oneof(fc.string(), fc.constantFrom(...HOSTILE)), { maxLength: 6 }).map((s) => JSON.stringify({ propositions: s, statements: s, context: s.join(' '), summary: s.join(' ') })),
  fc.array(fc.integer({ min: -5, max: 500 }), { maxLength: 12 }).map((ids) => JSON.stringify({ boundaries: ids, ids })),
  fc.jsonValue().map((v) => JSON.stringify(v)),
  fc.jsonValue().map((v) => '```json\n' + JSON.stringify(v) + '\n```'),
  fc.constantFrom(...HOSTILE),
  fc.string({ maxLength: 200 }),
  fc.constantFrom('{"propositions": [', 'null', '[]', '{}', '"' + 'x'.repeat(50_000) + '"', JSON.stringify({ propositions: ['Employees get 25 days of paid leave a year.'] })),
);

/** A fetch that answers every request as an OpenAI-compatible server would, with the next generated answer. */
function serverAnswering(answers: string[]): FetchLike {
  let i = 0;
  return async () => {
    const content = answers[i++ % answers.length]!;
    const body = JSON.stringify({ choices: [{ message: { content }, finish_reason: 'stop' }], usage: { prompt_tokens: 10, completion_tokens: 5 } });
    return { ok: true, status: 200, statusText: 'OK', headers: { get: () => null }, text: async () => body };
  };
}

const RUNS = Number(process.env.CHUNKSCOPE_FUZZ_RUNS ?? 25);

describe('model answers are untrusted text', () => {
  for (const feature of LLM_FEATURE_NAMES) {
    it(`${feature}: any answer ends in chunks that keep the contract and counted failures`, async () => {
      await fc.assert(
        fc.asyncProperty(fc.array(answer, { minLength: 1, maxLength: 8 }), async (answers) => {
          const { chunks, report } = await runLlmFeature(SOURCE, { strategy: 'recursive', size: 80, overlap: 0 }, {
            feature,
            baseUrl: 'http://127.0.0.1:9/v1',
            model: 'fuzz',
            fetch: serverAnswering(answers),
            policy: { timeoutMs: 2_000, retries: 0 },
          });
          expect(report.succeeded + report.failed).toBeGreaterThanOrEqual(report.requests);
          expect(report.succeeded).toBeLessThanOrEqual(report.requests);
          for (const c of chunks) {
            expect(c.text).toBe(SOURCE.slice(c.start, c.end));
            expect(typeof c.content).toBe('string');
          }
          // A proposition's support is a source span or nothing, and says which.
          for (const c of chunks) {
            const status = c.metadata.supportStatus;
            if (status !== undefined) expect(['exact', 'fuzzy', 'unsupported']).toContain(status);
          }
        }),
        { seed: 29, numRuns: RUNS },
      );
    });
  }
});
