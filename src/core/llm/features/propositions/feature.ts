/**
 * Propositions (Dense X Retrieval): each passage (a chunk of the base strategy) rewritten by the model as atomic,
 * self-contained statements. Each proposition is a chunk of derived text:
 * - `start`/`end`/`text`: its passage (so `text === source.slice(start, end)` holds, and nothing the model wrote is
 *   passed off as source);
 * - `content`: the proposition (what a pipeline would index);
 * - `metadata.derivedFrom`: the passage span; `metadata.support`: the source spans it restates, found by alignment
 *   (../../align.ts); `metadata.supportStatus`: exact | fuzzy | unsupported, with `supportScore` and `supportMatch`;
 *   `metadata.kind`: 'proposition'.
 */
import type { Chunk } from '../../../types';
import { alignProposition } from '../../align';
import { answerOf, hashString, type FeatureDescriptor, type FeatureFailure, type FeatureInput, type FeatureRequest } from '../../feature';
import { objectSchema, readStrings } from '../../read';
import { templateFor } from '../../templates';

const SCHEMA = objectSchema('propositions', { type: 'array', items: { type: 'string' } });

function requests(input: FeatureInput): FeatureRequest[] {
  const template = templateFor('propositions', input.templates);
  return input.chunks.map((chunk) => ({
    id: String(chunk.index),
    template,
    values: { passage: chunk.text },
    schema: SCHEMA,
    // About as many tokens as the passage: the statements restate it.
    expectedOutputTokens: Math.max(32, Math.round(chunk.text.length / 4)),
    read: (json) => readStrings(json, 'propositions'),
  }));
}

export const propositions = {
  name: 'propositions',
  label: 'Propositions',
  help: 'the model rewrites each passage as atomic statements; each is aligned back to the source span it restates',
  usesBaseChunks: true,
  requests,
  async build(input, answers) {
    const failures: FeatureFailure[] = [];
    const counts = { exact: 0, fuzzy: 0, unsupported: 0, passagesFailed: 0 };
    const chunks: Chunk[] = [];
    for (const passage of input.chunks) {
      const span = { start: passage.start, end: passage.end };
      const statements = answerOf<string[]>(answers, String(passage.index), failures, span);
      if (statements === undefined) {
        counts.passagesFailed++;
        continue;
      }
      // The passage's own injected text (a contextual header) and oversize flag are not the proposition's.
      const { prefix: _prefix, prefixSize: _prefixSize, oversize: _oversize, ...kept } = passage.metadata;
      statements.forEach((statement, i) => {
        const alignment = alignProposition(input.source, statement, span);
        counts[alignment.status]++;
        if (alignment.status === 'unsupported') {
          failures.push({ request: String(passage.index), span, kind: 'unsupported-proposition', reason: `not found in the source: "${statement.slice(0, 80)}"` });
        }
        chunks.push({
          index: chunks.length,
          start: passage.start,
          end: passage.end,
          text: passage.text,
          content: statement,
          size: input.unit.count(statement),
          id: `prop-${hashString(passage.id + '\u0000' + i + '\u0000' + statement)}`,
          metadata: {
            ...kept,
            kind: 'proposition',
            derivedFrom: span,
            passageId: passage.id,
            support: alignment.support,
            supportStatus: alignment.status,
            supportScore: Math.round(alignment.score * 1000) / 1000,
            supportMatch: alignment.match,
          },
        });
      });
    }
    return { chunks, failures, counts };
  },
} as const satisfies FeatureDescriptor<'propositions'>;
