import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);

// Cross-origin isolation (COOP/COEP) lets WASM use threads; nothing on the page comes from another origin.
const isolationHeaders = {
  'Cross-Origin-Opener-Policy': 'same-origin',
  'Cross-Origin-Embedder-Policy': 'require-corp',
};

export default defineConfig({
  plugins: [react()],
  resolve: {
    alias: [
      // The markdown parser decodes entities with decode-named-character-reference, whose "browser" build uses
      // document.createElement: the chunk worker has no document. Its plain build works everywhere.
      { find: /^decode-named-character-reference$/, replacement: require.resolve('decode-named-character-reference') },
    ],
  },
  appType: 'mpa',
  // Module workers: the embedding worker imports transformers.js, which is ESM with top-level await.
  worker: { format: 'es' },
  // transformers.js and onnxruntime-web load their wasm and helper modules relative to their own files; the dep
  // optimizer's pre-bundling moves them and breaks those URLs (the worker then fails to start the runtime).
  optimizeDeps: { exclude: ['@huggingface/transformers', 'onnxruntime-web'] },
  server: { headers: isolationHeaders },
  preview: { headers: isolationHeaders },
  // The app goes to dist/app: dist/lib holds the CLI and library (built by the prepare script), which an
  // emptied dist/ would delete.
  // APP_OUT_DIR: a private build folder, so several people can build and run e2e at once on one machine.
  build: { outDir: process.env.APP_OUT_DIR ?? 'dist/app', target: 'es2022', chunkSizeWarningLimit: 4000 },
});
