import type { GoldenQuestion, Reference } from './types';

/**
 * Golden sets in and out: JSON (an array of questions, or `{ "questions": [...] }`), JSONL (one question per line)
 * and the CSV of Chroma's chunking_evaluation (`question,references,corpus_id`, references a JSON list of
 * `{content, start_index, end_index}`). A question is `{ question, references: [{ start, end, content }], corpusId? }`;
 * references may also be written with Chroma's keys (start_index, end_index) and corpusId as corpus_id.
 * Offsets are UTF-16 (JavaScript string indices); Chroma's are Python code points, the same where a text has no
 * character outside the BMP (anchorReferences converts them when they differ).
 */
export const GOLDEN_FORMATS = ['json', 'jsonl', 'csv'] as const;
export type GoldenFormat = (typeof GOLDEN_FORMATS)[number];

/** A golden set that cannot be read: one line naming where (line or question number). */
export class GoldenSetError extends Error {
  override name = 'GoldenSetError';
}

/** The format of a golden-set file from its name, else from its first character. */
export function detectGoldenFormat(text: string, name?: string): GoldenFormat {
  const ext = name?.toLowerCase().match(/\.(json|jsonl|ndjson|csv)$/)?.[1];
  if (ext) return ext === 'ndjson' ? 'jsonl' : (ext as GoldenFormat);
  const body = text.replace(/^\uFEFF/, '').trimStart();
  if (body.startsWith('[')) return 'json';
  if (body.startsWith('{')) {
    // One object over the whole text is JSON; several lines each holding an object are JSONL.
    try {
      JSON.parse(body);
      return 'json';
    } catch {
      return 'jsonl';
    }
  }
  return 'csv';
}

/** Read a golden set (format from `options.format`, else detected). Throws GoldenSetError. */
export function parseGoldenSet(text: string, options: { format?: GoldenFormat; name?: string } = {}): GoldenQuestion[] {
  const body = text.replace(/^\uFEFF/, '');
  const format = options.format ?? detectGoldenFormat(body, options.name);
  switch (format) {
    case 'json': {
      let data: unknown;
      try {
        data = JSON.parse(body);
      } catch (err) {
        throw new GoldenSetError(`the golden set is not valid JSON (${(err as Error).message.split('\n')[0]})`);
      }
      const list = Array.isArray(data) ? data : (data as { questions?: unknown })?.questions;
      if (!Array.isArray(list)) throw new GoldenSetError('a JSON golden set is an array of questions (or { "questions": [...] })');
      return list.map((q, i) => toQuestion(q, `question ${i + 1}`));
    }
    case 'jsonl':
      return body
        .split(/\r?\n/)
        .map((line, i) => ({ line, n: i + 1 }))
        .filter(({ line }) => line.trim() !== '')
        .map(({ line, n }) => {
          let data: unknown;
          try {
            data = JSON.parse(line);
          } catch {
            throw new GoldenSetError(`line ${n} is not valid JSON`);
          }
          return toQuestion(data, `line ${n}`);
        });
    case 'csv':
      return parseChromaCsv(body);
  }
}

function toQuestion(data: unknown, where: string): GoldenQuestion {
  if (data === null || typeof data !== 'object' || Array.isArray(data)) throw new GoldenSetError(`${where}: a question is an object with "question" and "references"`);
  const o = data as Record<string, unknown>;
  if (typeof o.question !== 'string' || o.question.trim() === '') throw new GoldenSetError(`${where}: "question" must be a non-empty string`);
  let refs = o.references;
  if (typeof refs === 'string') {
    try {
      refs = JSON.parse(refs);
    } catch {
      throw new GoldenSetError(`${where}: "references" is not a JSON list`);
    }
  }
  if (!Array.isArray(refs)) throw new GoldenSetError(`${where}: "references" must be a list of {start, end, content}`);
  const references = refs.map((r, j) => toReference(r, `${where}, reference ${j + 1}`));
  const corpus = o.corpusId ?? o.corpus_id;
  const q: GoldenQuestion = { question: o.question, references };
  if (corpus !== undefined && corpus !== null && corpus !== '') {
    if (typeof corpus !== 'string') throw new GoldenSetError(`${where}: "corpusId" must be a string`);
    q.corpusId = corpus;
  }
  if (o.generated === true) q.generated = true;
  return q;
}

function toReference(data: unknown, where: string): Reference {
  if (data === null || typeof data !== 'object') throw new GoldenSetError(`${where}: a reference is {start, end, content}`);
  const o = data as Record<string, unknown>;
  const start = Number(o.start ?? o.start_index);
  const end = Number(o.end ?? o.end_index);
  if (!Number.isInteger(start) || !Number.isInteger(end) || start < 0 || end < start) {
    throw new GoldenSetError(`${where}: start and end must be whole numbers, 0 <= start <= end (got ${String(o.start ?? o.start_index)}, ${String(o.end ?? o.end_index)})`);
  }
  if (typeof o.content !== 'string') throw new GoldenSetError(`${where}: "content" must be the reference's text`);
  return { start, end, content: o.content };
}

/** RFC 4180 records: quoted fields may hold commas, quotes ("") and line breaks. */
export function parseCsvRecords(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let i = 0;
  let quoted = false;
  let any = false;
  while (i < text.length) {
    const c = text[i]!;
    if (quoted) {
      if (c === '"') {
        if (text[i + 1] === '"') {
          field += '"';
          i += 2;
          continue;
        }
        quoted = false;
      } else field += c;
      i++;
      continue;
    }
    if (c === '"' && field === '') {
      quoted = true;
      any = true;
    } else if (c === ',') {
      row.push(field);
      field = '';
      any = true;
    } else if (c === '\n' || c === '\r') {
      if (c === '\r' && text[i + 1] === '\n') i++;
      if (any || field !== '') row.push(field);
      if (row.length > 0) rows.push(row);
      row = [];
      field = '';
      any = false;
    } else {
      field += c;
      any = true;
    }
    i++;
  }
  if (quoted) throw new GoldenSetError('the CSV ends inside a quoted field');
  if (any || field !== '') row.push(field);
  if (row.length > 0) rows.push(row);
  return rows;
}

function parseChromaCsv(text: string): GoldenQuestion[] {
  const rows = parseCsvRecords(text);
  if (rows.length === 0) return [];
  const header = rows[0]!.map((h) => h.trim().toLowerCase());
  const qi = header.indexOf('question');
  const ri = header.indexOf('references');
  const ci = header.indexOf('corpus_id');
  if (qi < 0 || ri < 0) throw new GoldenSetError('the CSV needs the columns question and references (and corpus_id), as in chunking_evaluation');
  return rows.slice(1).map((r, i) => toQuestion({ question: r[qi], references: r[ri] ?? '', corpus_id: ci >= 0 ? r[ci] : undefined }, `CSV row ${i + 2}`));
}

/** Python's json.dumps of a string (ensure_ascii: non-ASCII as \uXXXX), so written CSVs read like Chroma's own. */
function pyJsonString(s: string): string {
  return JSON.stringify(s).replace(/[\u007f-\uffff]/g, (c) => '\\u' + c.charCodeAt(0).toString(16).padStart(4, '0'));
}

function csvField(s: string): string {
  return /[",\r\n]/.test(s) ? '"' + s.replace(/"/g, '""') + '"' : s;
}

/**
 * The corpus_id a page's export writes for its document: the document's file name (`chunkscope eval <that file>`
 * matches it with or without extension), "document" for a pasted text without a name.
 */
export function corpusIdForDocument(name: string | null | undefined): string {
  const base = name?.split(/[\\/]/).pop()?.trim();
  return base ? base : 'document';
}

/** Write a golden set: JSON (pretty, 2 spaces), JSONL, or Chroma's CSV (corpusId or `defaultCorpusId` in corpus_id). */
export function formatGoldenSet(questions: readonly GoldenQuestion[], format: GoldenFormat, options: { defaultCorpusId?: string } = {}): string {
  const plain = (q: GoldenQuestion) => ({
    question: q.question,
    references: q.references.map((r) => ({ start: r.start, end: r.end, content: r.content })),
    ...(q.corpusId !== undefined ? { corpusId: q.corpusId } : {}),
    ...(q.generated ? { generated: true } : {}),
  });
  switch (format) {
    case 'json':
      return JSON.stringify(questions.map(plain), null, 2) + '\n';
    case 'jsonl':
      return questions.map((q) => JSON.stringify(plain(q)) + '\n').join('');
    case 'csv': {
      const lines = ['question,references,corpus_id'];
      for (const q of questions) {
        const refs = '[' + q.references.map((r) => `{"content": ${pyJsonString(r.content)}, "start_index": ${r.start}, "end_index": ${r.end}}`).join(', ') + ']';
        lines.push([csvField(q.question), csvField(refs), csvField(q.corpusId ?? options.defaultCorpusId ?? '')].join(','));
      }
      return lines.join('\n') + '\n';
    }
  }
}
