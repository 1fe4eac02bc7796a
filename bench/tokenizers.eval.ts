/**
 * How README's tokenizer table was measured: the exact tokenizers on npm against js-tiktoken and the engine's
 * encoder, on the 1 MiB corpus (cl100k_base; medians of 5 interleaved passes; identical ids checked). The other
 * packages are not dependencies of the project: install them in a scratch folder and point TOKEVAL_MODULES at its
 * node_modules (`npm install --prefix /tmp/tokeval tiktoken@1.0.22 gpt-tokenizer@4.0.0 ai-tokenizer@1.0.6`), then
 * `node --import tsx bench/tokenizers.eval.ts`. Installing gpt-tokenizer into this project would change
 * @llamaindex/core's own tokenizer (see README).
 */
import { readFileSync } from 'node:fs';
import { Tiktoken } from 'js-tiktoken/lite';
import cl100k from 'js-tiktoken/ranks/cl100k_base';
import { loadTiktokenUnit } from '../src/core/units/tiktoken';
const M = (process.env.TOKEVAL_MODULES ?? '/tmp/tokeval/node_modules').replace(/\/?$/, '/');
const text = readFileSync('/work/shared/corpus/english-1mib.txt', 'utf8');
const js = new Tiktoken(cl100k);
const { createRequire } = await import('node:module'); const wasm = createRequire(M)('tiktoken').get_encoding('cl100k_base');
const gpt = await import(M + 'gpt-tokenizer/esm/encoding/cl100k_base.js');
const Tok = (await import(M + 'ai-tokenizer/dist/index.js')).default;
const ai = new Tok(await import(M + 'ai-tokenizer/dist/encoding/cl100k_base.js'));
const unit = await loadTiktokenUnit('cl100k_base');
const ref = js.encode(text, [], []);
const sides: [string, (t: string) => ArrayLike<number>][] = [
  ['js-tiktoken 1.0.21', (t) => js.encode(t, [], [])],
  ['tiktoken 1.0.22 (WASM)', (t) => wasm.encode_ordinary(t)],
  ['gpt-tokenizer 4.0.0', (t) => gpt.encode(t, { disallowedSpecial: new Set() })],
  ['ai-tokenizer 1.0.6', (t) => ai.encode(t, [], [])],
  ['Chunkscope BytePairEncoder (fresh caches)', (t) => unit.withEmptyCaches().encode(t)],
];
const ms: Record<string, number[]> = {};
for (let r = 0; r < 5; r++) for (const [name, f] of sides) { const doc = text + ' ' + r; const t = performance.now(); const ids = f(doc); (ms[name] ??= []).push(performance.now() - t); }
for (const [name, f] of sides) { const ids = Array.from(f(text)); const same = ids.length === ref.length && ids.every((v, i) => v === ref[i]); const s = ms[name]!.sort((a, b) => a - b); console.log(name.padEnd(44), 'median', s[2]!.toFixed(0).padStart(5), 'ms', same ? 'identical ids' : 'DIFFERENT'); }

// One line of letters without spaces: a single pre-token piece, where a quadratic merge shows.
const { makeInput } = await import('./scale-case');
for (const kib of [16, 64]) {
  const line = makeInput('nospace', kib / 1024);
  for (const [name, f] of sides.slice(1)) {
    const t = performance.now();
    f(line);
    console.log(`${kib} KiB line without spaces`.padEnd(28), name.padEnd(44), (performance.now() - t).toFixed(0).padStart(6), 'ms');
  }
}
