/**
 * Summaries: one per document and, optionally, one per top-level section (the shallowest markdown heading level used twice or more),
 * added as extra entries after the base strategy's chunks. A summary entry is derived text:
 * `start`/`end`/`text` are the span it summarises (so `text === source.slice(start, end)` holds), `content` is the
 * summary, `metadata.kind` is 'summary', `metadata.summaryOf` and `metadata.derivedFrom` the span. A span longer
 * than the context budget is sent cut to the budget, and `metadata.summaryInputTruncated` says so.
 */
import type { Chunk, Range } from '../../../types';
import { answerOf, hashString, type FeatureDescriptor, type FeatureFailure, type FeatureInput, type FeatureRequest } from '../../feature';
import { objectSchema, readString } from '../../read';
import { templateFor } from '../../templates';

const SCHEMA = objectSchema('summary', { type: 'string' });
const DEFAULT_BUDGET = 24_000;

/** The spans to summarise: the document, then each top-level section (when asked and there are two or more). */
export function summarySpans(source: string, withSections: boolean): { id: string; span: Range; scope: string }[] {
  const out = [{ id: 'document', span: { start: 0, end: source.length }, scope: 'document' }];
  if (!withSections) return out;
  const headings = [...source.matchAll(/^(#{1,6})[ \t]+\S.*$/gm)];
  if (headings.length === 0) return out;
  // Top-level: the shallowest heading level used twice or more (a lone title heading is the document itself).
  const levels = headings.map((h) => h[1]!.length);
  const top = [1, 2, 3, 4, 5, 6].find((level) => levels.filter((l) => l === level).length >= 2);
  if (top === undefined) return out;
  const starts = headings.filter((h) => h[1]!.length === top).map((h) => h.index!);
  starts.forEach((start, i) => out.push({ id: `section-${start}`, span: { start, end: starts[i + 1] ?? source.length }, scope: 'section of a document' }));
  return out;
}

function requests(input: FeatureInput): FeatureRequest[] {
  if (input.source.trim() === '') return [];
  const template = templateFor('summaries', input.templates);
  const budget = input.settings.contextBudget ?? DEFAULT_BUDGET;
  return summarySpans(input.source, input.settings.sectionSummaries ?? false).map(({ id, span, scope }) => ({
    id,
    template,
    values: { section: input.source.slice(span.start, Math.min(span.end, span.start + budget)), scope },
    schema: SCHEMA,
    expectedOutputTokens: 120,
    maxTokens: 400,
    read: (json) => readString(json, 'summary'),
  }));
}

export const summaries = {
  name: 'summaries',
  label: 'Summaries',
  help: 'one summary of the document (and of each top-level section) added beside the chunks, with the span it summarises',
  usesBaseChunks: true,
  requests,
  async build(input, answers) {
    const failures: FeatureFailure[] = [];
    const budget = input.settings.contextBudget ?? DEFAULT_BUDGET;
    const chunks: Chunk[] = [...input.chunks];
    const documentId = input.options.documentId ?? hashString(input.source);
    let made = 0;
    if (input.source.trim() !== '') {
      for (const { id, span } of summarySpans(input.source, input.settings.sectionSummaries ?? false)) {
        const summary = answerOf<string>(answers, id, failures, span);
        if (summary === undefined) continue;
        made++;
        chunks.push({
          index: chunks.length,
          start: span.start,
          end: span.end,
          text: input.source.slice(span.start, span.end),
          content: summary,
          size: input.unit.count(summary),
          id: `sum-${hashString(`${documentId}\u0000${span.start}\u0000${span.end}\u0000${summary}`)}`,
          metadata: {
            strategy: input.options.strategy,
            compat: input.options.compat,
            unit: input.options.unit,
            documentId,
            kind: 'summary',
            summaryOf: span,
            derivedFrom: span,
            ...(span.end - span.start > budget ? { summaryInputTruncated: true } : {}),
          },
        });
      }
    }
    return { chunks, failures, counts: { summaries: made } };
  },
} as const satisfies FeatureDescriptor<'summaries'>;
