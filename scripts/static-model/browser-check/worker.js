// Worker of scripts/static-model/browser-check.mjs: loads the built-in model the way the app's embed
// worker will (own-origin model and onnxruntime-web files, no remote models, wasm device), checks a
// known pair, an empty text, and measures three ways of embedding the corpus sentences it is sent.
import { pipeline, env } from '@huggingface/transformers';
env.allowLocalModels = true;
env.allowRemoteModels = false;
env.localModelPath = '/models/';
env.backends.onnx.wasm.wasmPaths = '/ort/';
self.onmessage = async ({ data: sentences }) => {
  try {
    const t0 = performance.now();
    const ex = await pipeline('feature-extraction', 'chunkscope-static-en', { device: 'wasm' });
    const loadMs = performance.now() - t0;
    const sorted = [...sentences].sort((a, b) => a.length - b.length);
    const first = await ex(['The cat sat on the mat.', 'A kitten slept on the rug.', ''], { pooling: 'mean', normalize: true });
    const v = first.tolist();
    const cos = v[0].reduce((s, x, i) => s + x * v[1][i], 0);
    const res = { loadMs, cos, emptyIsNaN: Number.isNaN(v[2][0]), crossOriginIsolated: self.crossOriginIsolated, threads: env.backends.onnx.wasm.numThreads };
    for (const [name, run] of [
      ['pipeline sorted b64', async () => { for (let i = 0; i < sorted.length; i += 64) await ex(sorted.slice(i, i + 64), { pooling: 'mean', normalize: true }); }],
      ['pipeline one-by-one', async () => { for (const s of sentences.slice(0, 2000)) await ex(s, { pooling: 'mean', normalize: true }); }],
      ['direct sorted b256', async () => { for (let i = 0; i < sorted.length; i += 256) await ex.model(ex.tokenizer(sorted.slice(i, i + 256), { padding: true, truncation: true })); }],
    ]) {
      await run();
      const t = performance.now();
      await run();
      const n = name.includes('one-by-one') ? Math.min(2000, sentences.length) : sentences.length;
      res[name] = Math.round(n / ((performance.now() - t) / 1000));
    }
    self.postMessage(res);
  } catch (e) {
    self.postMessage({ error: String(e && e.stack || e) });
  }
};
