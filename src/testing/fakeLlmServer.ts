/**
 * A deterministic fake OpenAI-compatible server for tests (no real model runs in CI): Node http on 127.0.0.1, a
 * free port. It answers POST /v1/chat/completions from the request itself:
 * - contextual (<chunk>...</chunk>): "Context: this chunk begins with <its first five words>.";
 * - propositions (<passage>...</passage>): the passage's sentences, one proposition each;
 * - boundaries (numbered "[i] ..." lines): the ids `boundaryIds(first, last)` (every third piece);
 * - summaries (<text>...</text>): "Summary: <the first sentence>";
 * - listwise rerank (<rerank-question>, <p id="i">...</p>): `fakeRanking` (by question words held, then id);
 * - golden questions (<golden-section>...</golden-section>): `fakeGoldenAnswer` (its first sentence as the excerpt).
 * Faults on demand: `failNext(fault, times)` for the next requests, or a marker in the text (`[[fault:500]]`) for
 * the requests whose prompt holds it. Test code only. By hand: `npx tsx src/testing/fakeLlmServer.ts [port]` prints
 * its base URL and serves until stopped.
 */
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export type Fault =
  | '500'
  | '429' // with Retry-After: retryAfterSeconds
  | '401' // echoing the key, as hosted APIs do
  | 'slow' // answers after slowMs
  | 'invalid-json' // prose without JSON
  | 'fenced' // the right JSON inside a ```json fence with prose around it
  | 'out-of-range' // boundaries, rerank: ids past the end, repeated and decreasing
  | 'invent' // propositions: one statement not in the passage; golden: an excerpt not in the section
  | 'empty' // an empty message
  | 'truncated'; // finish_reason "length"

export interface RecordedRequest {
  body: { model: string; messages: { role: string; content: string }[]; response_format?: unknown };
  authorization: string | undefined;
}

export interface FakeLlmServer {
  /** http://127.0.0.1:<port>/v1 */
  baseUrl: string;
  requests: RecordedRequest[];
  failNext(fault: Fault, times?: number): void;
  retryAfterSeconds: number;
  slowMs: number;
  /** Every answer waits this long first (default 0): a run a test can cancel midway. */
  delayMs: number;
  close(): Promise<void>;
}

export const INVENTED_PROPOSITION = 'The moon is made of green cheese according to the passage.';

/** The ids the fake draws boundaries at for pieces first..last: every third piece after the first. */
export function boundaryIds(first: number, last: number): number[] {
  const ids: number[] = [];
  for (let i = first + 3; i <= last; i += 3) ids.push(i);
  return ids;
}

export function fakeSentences(text: string): string[] {
  return (text.match(/[^.!?]+[.!?]+|[^.!?]+$/g) ?? []).map((s) => s.trim()).filter((s) => s !== '');
}

export const INVENTED_EXCERPT = 'The committee approved the purple elephant budget in 1842.';

const words = (text: string) => new Set(text.toLowerCase().match(/[\p{L}\p{N}]{3,}/gu) ?? []);

/** The fake's listwise ranking: passages by how many distinct question words (3+ letters) they hold, then by id. */
export function fakeRanking(question: string, passages: readonly string[]): number[] {
  const wanted = words(question);
  const held = passages.map((p) => [...words(p)].filter((w) => wanted.has(w)).length);
  return passages.map((_, i) => i).sort((a, b) => held[b]! - held[a]! || a - b);
}

/** The fake's golden question for a section: its first sentence is the excerpt; the question names its first words. */
export function fakeGoldenAnswer(section: string): { question: string; excerpt: string } {
  const excerpt = fakeSentences(section)[0] ?? section;
  return { question: `What does the text say about ${excerpt.split(/\s+/).slice(0, 4).join(' ')}?`, excerpt };
}

/** Starts the server on 127.0.0.1 (`port` 0: a free one, the tests' choice). `corsOrigin`: answer a page on that
 * origin as a local server configured for it would (preflight and Access-Control-Allow-Origin). */
export async function startFakeLlmServer(port = 0, { corsOrigin }: { corsOrigin?: string } = {}): Promise<FakeLlmServer> {
  const queue: Fault[] = [];
  const state: FakeLlmServer = {
    baseUrl: '',
    requests: [],
    retryAfterSeconds: 1,
    slowMs: 2_000,
    delayMs: 0,
    failNext(fault, times = 1) {
      for (let i = 0; i < times; i++) queue.push(fault);
    },
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
  const server: Server = createServer(async (req, res) => {
    const raw = await readBody(req);
    if (corsOrigin) res.setHeader('access-control-allow-origin', corsOrigin).setHeader('access-control-expose-headers', 'retry-after');
    if (corsOrigin && req.method === 'OPTIONS') {
      res.writeHead(204, { 'access-control-allow-methods': 'POST', 'access-control-allow-headers': 'content-type, authorization', 'access-control-max-age': '600' }).end();
      return;
    }
    if (req.method !== 'POST' || !req.url?.endsWith('/chat/completions')) {
      res.writeHead(404, { 'content-type': 'application/json' }).end(JSON.stringify({ error: { message: 'not found' } }));
      return;
    }
    let body: RecordedRequest['body'];
    try {
      body = JSON.parse(raw);
    } catch {
      res.writeHead(400).end(JSON.stringify({ error: { message: 'bad JSON' } }));
      return;
    }
    state.requests.push({ body, authorization: req.headers.authorization });
    const prompt = body.messages.map((m) => m.content).join('\n');
    const marker = /\[\[fault:([a-z0-9-]+)\]\]/.exec(prompt);
    const fault = (queue.shift() ?? marker?.[1]) as Fault | undefined;
    const send = (status: number, payload: unknown, headers: Record<string, string> = {}) =>
      res.writeHead(status, { 'content-type': 'application/json', ...headers }).end(JSON.stringify(payload));
    const reply = (content: string, finish = 'stop') =>
      send(200, { choices: [{ index: 0, message: { role: 'assistant', content }, finish_reason: finish }], usage: { prompt_tokens: Math.ceil(prompt.length / 4), completion_tokens: Math.ceil(content.length / 4) } });
    if (state.delayMs > 0) await new Promise((resolve) => setTimeout(resolve, state.delayMs));
    if (fault === '500') return send(500, { error: { message: 'the fake server failed on purpose' } });
    if (fault === '429') return send(429, { error: { message: 'rate limited' } }, { 'retry-after': String(state.retryAfterSeconds) });
    // As hosted APIs do, the 401 echoes the key it got (the client must not pass it on).
    if (fault === '401') return send(401, { error: { message: `Incorrect API key provided: ${(req.headers.authorization ?? '').replace(/^Bearer /, '')}` } });
    if (fault === 'slow') await new Promise((resolve) => setTimeout(resolve, state.slowMs));
    if (fault === 'invalid-json') return reply('I am sorry, I cannot answer in JSON today.');
    if (fault === 'empty') return reply('');
    if (fault === 'truncated') return reply('{"propositions": ["cut', 'length');
    const answer = answerFor(prompt, fault);
    return reply(fault === 'fenced' ? 'Here is the JSON:\n```json\n' + JSON.stringify(answer, null, 2) + '\n```\nHope this helps.' : JSON.stringify(answer));
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  state.baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
  return state;
}

function answerFor(prompt: string, fault: Fault | undefined): unknown {
  const between = (open: string, close: string) => {
    const from = prompt.indexOf(open);
    const to = prompt.indexOf(close, from + open.length);
    return from >= 0 && to >= 0 ? prompt.slice(from + open.length, to).trim() : null;
  };
  const rerankQuestion = between('<rerank-question>', '</rerank-question>');
  if (rerankQuestion !== null) {
    const passages = [...prompt.matchAll(/<p id="(\d+)">([\s\S]*?)<\/p>/g)].map((m) => m[2]!);
    if (fault === 'out-of-range') return { ranking: [passages.length + 5, 1, 1, -1, 'x', 0.5] };
    return { ranking: fakeRanking(rerankQuestion, passages) };
  }
  const golden = between('<golden-section>', '</golden-section>');
  if (golden !== null) return fault === 'invent' ? { question: 'What did the committee approve?', excerpt: INVENTED_EXCERPT } : fakeGoldenAnswer(golden);
  const chunk = between('<chunk>', '</chunk>');
  if (chunk !== null) return { context: `Context: this chunk begins with ${chunk.split(/\s+/).slice(0, 5).join(' ')}.` };
  const passage = between('<passage>', '</passage>');
  if (passage !== null) {
    const statements = fakeSentences(passage);
    return { propositions: fault === 'invent' ? [...statements, INVENTED_PROPOSITION] : statements };
  }
  const text = between('<text>', '</text>');
  if (text !== null) return { summary: `Summary: ${fakeSentences(text)[0] ?? ''}` };
  const ids = [...prompt.matchAll(/^\[(\d+)\] /gm)].map((m) => Number(m[1]));
  if (ids.length > 0) {
    const first = ids[0]!;
    const last = ids[ids.length - 1]!;
    if (fault === 'out-of-range') return { boundaries: [last + 5, first + 2, first + 2, first + 1, -1, 'x', 1.5] };
    return { boundaries: boundaryIds(first, last) };
  }
  return { answer: 'unknown request' };
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    let data = '';
    req.setEncoding('utf8');
    req.on('data', (part: string) => (data += part));
    req.on('end', () => resolve(data));
    req.on('error', reject);
  });
}

// Run directly (npx tsx src/testing/fakeLlmServer.ts [port]): serve until stopped, for trying the CLI by hand.
if (process.argv[1] && import.meta.url === new URL(`file://${process.argv[1]}`).href) {
  const server = await startFakeLlmServer(Number(process.argv[2] ?? 0));
  console.log(server.baseUrl);
}
