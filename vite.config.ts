import { defineConfig, type Plugin } from 'vite';
import react from '@vitejs/plugin-react';
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join, relative, resolve, sep } from 'node:path';

const require = createRequire(import.meta.url);

// Cross-origin isolation (COOP/COEP) lets WASM use threads; nothing on the page comes from another origin.
const isolationHeaders = {
  'Cross-Origin-Opener-Policy': 'same-origin',
  'Cross-Origin-Embedder-Policy': 'require-corp',
};

/**
 * The Content-Security-Policy of the built app: scripts, workers (chunk, embedding, Monaco, pdf.js, onnxruntime's
 * threads, the service worker) and WebAssembly only from the page's own origin ('wasm-unsafe-eval' lets
 * onnxruntime and tree-sitter compile their wasm; no script eval, no inline script); network only to this origin
 * and the Hugging Face hosts transformers.js downloads a hub model from (huggingface.co redirects to its CDN,
 * cdn-lfs.huggingface.co / *.hf.co). Styles allow 'unsafe-inline': Monaco writes <style> elements and style
 * attributes, and React style props are attributes (styles cannot run code). Document text is never markup.
 */
const CSP_DIRECTIVES = [
  "default-src 'self'",
  "script-src 'self' 'wasm-unsafe-eval'",
  "worker-src 'self'",
  // The LLM panel's endpoint (the person types it; a non-loopback host is named and confirmed before any request):
  // local servers over http on loopback, anything else over https. (CSP has no IPv6 literal host source: Chromium
  // ignores `http://[::1]:*` with a console warning on every load, so a server on [::1] is reached as localhost.)
  "connect-src 'self' https://huggingface.co https://*.huggingface.co https://*.hf.co http://localhost:* http://127.0.0.1:* https:",
  "img-src 'self' data: blob:",
  "font-src 'self' data:",
  "style-src 'self' 'unsafe-inline'",
  "manifest-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'none'",
];
/**
 * Trusted Types (issue 29): DOM sinks refuse plain strings, so an escaping mistake cannot run script. Policies
 * allowed: the page's `default` (src/ui/trustedTypes.ts: same-origin worker URLs, empty markup only) and those
 * Monaco creates for its own markup and worker (monaco-editor/esm, createTrustedTypesPolicy). Only in the
 * document's policy: a worker's script gets the header's policy, and workers have no DOM sinks.
 */
const MONACO_POLICIES = [
  'defaultWorkerFactory', 'diffEditorWidget', 'diffReview', 'domLineBreaksComputer', 'editorGhostText', 'editorViewLayer',
  'richScreenReaderContent', 'standaloneColorizer', 'stickyScrollViewLayer', 'tokenizeToString',
  // Monaco's markdown (the chunk hover) is sanitized by its bundled DOMPurify, which returns TrustedHTML.
  'dompurify',
];
const TRUSTED_TYPES_DIRECTIVES = ["require-trusted-types-for 'script'", `trusted-types default ${MONACO_POLICIES.join(' ')}`];
/** As a <meta> tag (in every built index.html, so a static host without headers still has it). */
export const CONTENT_SECURITY_POLICY = [...CSP_DIRECTIVES, ...TRUSTED_TYPES_DIRECTIVES].join('; ');
/** As a header: frame-ancestors works only there. */
const cspHeaders = { 'Content-Security-Policy': `${CSP_DIRECTIVES.join('; ')}; frame-ancestors 'none'` };

/** The policy's meta tag, written into the built page only (vite dev injects an inline React-refresh script). */
function contentSecurityPolicy(): Plugin {
  return {
    name: 'chunkscope-csp',
    apply: 'build',
    transformIndexHtml: () => [{ tag: 'meta', attrs: { 'http-equiv': 'Content-Security-Policy', content: CONTENT_SECURITY_POLICY }, injectTo: 'head-prepend' }],
  };
}

/**
 * The offline app (issue 12): after `vite build` has written the app, this writes <outDir>/sw.js from
 * src/pwa/sw.template.js with the list of every file in the build (the app shell, lazy chunks, workers, wasm,
 * grammars, tokenizer ranks, pdf/docx readers, public/models) and a version hashed from their contents, so a new
 * deployment is a new service worker. Hand-written rather than vite-plugin-pwa (README, "Offline"): 60 lines of
 * worker, no workbox-build dependency tree, and control over what matters here (the COOP/COEP headers travel
 * with the cached page; model files the cache lacks answer 404 offline so transformers.js falls back to its own
 * cache of hub models; cross-origin requests are never intercepted).
 */
function serviceWorker(): Plugin {
  let outDir = 'dist/app';
  let root = process.cwd();
  return {
    name: 'chunkscope-sw',
    apply: 'build',
    configResolved(config) {
      root = config.root;
      outDir = config.build.outDir;
    },
    closeBundle() {
      const dir = resolve(root, outDir);
      const files: string[] = [];
      const walk = (folder: string) => {
        for (const entry of readdirSync(folder, { withFileTypes: true })) {
          const path = join(folder, entry.name);
          if (entry.isDirectory()) walk(path);
          else if (entry.isFile()) files.push(relative(dir, path).split(sep).join('/'));
        }
      };
      walk(dir);
      const cached = files.filter((f) => f !== 'sw.js' && !f.endsWith('.map')).sort();
      const hash = createHash('sha256');
      for (const f of cached) hash.update(f).update('\0').update(readFileSync(join(dir, f))).update('\0');
      const version = hash.digest('hex').slice(0, 16);
      const urls = cached.map((f) => (f === 'index.html' ? '/' : `/${f}`));
      const template = readFileSync(join(root, 'src/pwa/sw.template.js'), 'utf8');
      writeFileSync(join(dir, 'sw.js'), template.replace("'__VERSION__'", () => `'${version}'`).replace('= __PRECACHE__;', () => `= ${JSON.stringify(urls)};`));
    },
  };
}

/**
 * Two fixes to Monaco's code, made as the app is bundled. Monaco's view keeps one projection per line in an array,
 * and the count of view lines per line in another, and on every insert of lines builds both anew with slice and
 * concat (its own TODO says to stop): a 10 MiB paste enters the editor in ~100 appends, so each append copied the
 * arrays of all lines before it, megabytes of garbage per piece and the major collections that made pieces long
 * tasks. An append at the end now pushes; any other insert is left as Monaco wrote it. Measured on a 10 MiB paste
 * (bench/browser.bench.ts): about 1.5x the characters per ms with the first fix alone, and 40% of the collection
 * time. Not patch-package: it would run at install time in every project that installs the chunkscope library,
 * which never bundles Monaco. The build fails if Monaco's code changed under a pattern, rather than shipping
 * without the fix unnoticed. (The dev server pre-bundles Monaco with esbuild, so `npm run dev` runs it unpatched.)
 */
const MONACO_INSERT_BY_COPY = `        this.modelLineProjections =
            this.modelLineProjections.slice(0, fromLineNumber - 1)
                .concat(insertLines)
                .concat(this.modelLineProjections.slice(fromLineNumber - 1));`;
const MONACO_VALUES_BY_COPY = `        this._values = arrayInsert(this._values, insertIndex, insertArr);`;
const MONACO_APPENDS: { file: RegExp; from: string; to: string }[] = [
  {
    file: /monaco-editor\/esm\/vs\/editor\/common\/viewModel\/viewModelLines\.js$/,
    from: MONACO_INSERT_BY_COPY,
    to: `        if (fromLineNumber - 1 === this.modelLineProjections.length) {
            for (let i = 0; i < insertLines.length; i++) this.modelLineProjections.push(insertLines[i]);
        } else {
${MONACO_INSERT_BY_COPY}
        }`,
  },
  {
    // ConstantTimePrefixSumComputer, the view-line counts (its one user, viewModelLines.js, owns the array).
    file: /monaco-editor\/esm\/vs\/editor\/common\/model\/prefixSumComputer\.js$/,
    from: MONACO_VALUES_BY_COPY,
    to: `        if (insertIndex === this._values.length) {
            for (let i = 0; i < insertArr.length; i++) this._values.push(insertArr[i]);
        } else {
    ${MONACO_VALUES_BY_COPY}
        }`,
  },
];
function monacoAppendLines(): Plugin {
  const applied = new Set<string>();
  return {
    name: 'chunkscope-monaco-append-lines',
    apply: 'build',
    transform(code, id) {
      const path = id.split(sep).join('/');
      const fix = MONACO_APPENDS.find((f) => f.file.test(path));
      if (!fix) return null;
      if (code.split(fix.from).length !== 2) this.error(`Monaco changed: ${id} no longer has the insert by copy fixed in vite.config.ts; review the fix`);
      applied.add(fix.from);
      return { code: code.replace(fix.from, () => fix.to), map: null };
    },
    // A file moved or renamed in a new Monaco would otherwise drop the fix without a word.
    buildEnd(error) {
      if (error) return;
      const missing = MONACO_APPENDS.filter((f) => !applied.has(f.from));
      if (missing.length > 0) this.error(`Monaco changed: no file matched ${missing.map((f) => f.file.source).join(', ')}; review the fix in vite.config.ts`);
    },
  };
}

/**
 * The entry (main.tsx) only starts the chunk worker and then imports the app (src/startApp.tsx), so the worker
 * fetches its code while the page fetches its own. This lists the app's chunk and its static imports as
 * modulepreload links in index.html, so they are fetched with the entry as before, not one round trip after it.
 */
function preloadApp(): Plugin {
  return {
    name: 'chunkscope-preload-app',
    apply: 'build',
    transformIndexHtml: {
      order: 'post',
      handler(html, ctx) {
        const bundle = ctx.bundle;
        if (!bundle) return [];
        const app = Object.values(bundle).find((c) => c.type === 'chunk' && c.facadeModuleId?.endsWith('/src/startApp.tsx'));
        if (!app || app.type !== 'chunk') return [];
        const files = new Set<string>();
        const visit = (name: string) => {
          const chunk = bundle[name];
          if (!chunk || chunk.type !== 'chunk' || files.has(name)) return;
          files.add(name);
          chunk.imports.forEach(visit);
        };
        visit(app.fileName);
        const tags = [...files].filter((file) => !html.includes(`/${file}"`)).map((file) => ({ tag: 'link', attrs: { rel: 'modulepreload', crossorigin: true, href: `/${file}` }, injectTo: 'head' as const }));
        // The app's styles after the entry's (styles.css), in the order the page always had them: they used to come
        // with the app's import, after the entry's stylesheet.
        const appCss = [...files].flatMap((name) => {
          const chunk = bundle[name];
          return chunk?.type === 'chunk' ? [...(chunk.viteMetadata?.importedCss ?? [])] : [];
        });
        let reordered = html;
        for (const file of appCss) {
          const link = new RegExp(`[ \\t]*<link rel="stylesheet"[^>]*href="/${file.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}"[^>]*>\\n?`).exec(reordered);
          if (!link) continue;
          reordered = reordered.replace(link[0], '');
          const last = reordered.lastIndexOf('<link rel="stylesheet"');
          const end = reordered.indexOf('>', last) + 1;
          reordered = `${reordered.slice(0, end)}\n${link[0].trimEnd()}${reordered.slice(end)}`;
        }
        return { html: reordered, tags };
      },
    },
  };
}

/**
 * Modules built ahead (issue 28), each the default export of code run at build (and when the dev server starts)
 * through Vite's module runner, written as JSON, so the first screen has them without the code that makes them:
 * - `virtual:chunkscope-first-chunks`: a first visit (nothing stored, no link) paints the first sample with the
 *   default options, and those chunks do not depend on the viewport. This is the chunk worker's answer to that job,
 *   computed with the worker's own code (src/worker/chunkAhead.ts on src/ui/samples/firstJob.ts), so the page paints
 *   it before the worker has loaded; the worker starts after the paint and its answer replaces it
 *   (src/state/firstChunks.ts compares the text and options; anything else runs in the worker).
 * - `virtual:chunkscope-registry-facts`: the export buttons' descriptors and the extensions "Open file…" accepts
 *   (src/ui/registryFacts.ts), so the exporters' renderers and the importers load on first use.
 * Built on every build, so they cannot go stale; the dev server builds them again when their sources change.
 */
const BUILT_MODULES: Record<string, string> = {
  // Top-level await: the runner closes once the import is done, and chunk() imports the strategy dynamically.
  'virtual:chunkscope-first-chunks': `import { firstSampleJob } from '/src/ui/samples/firstJob.ts';
import { chunkAhead } from '/src/worker/chunkAhead.ts';
const job = firstSampleJob();
export default await chunkAhead(job.text, job.options);`,
  'virtual:chunkscope-registry-facts': `import { registryFacts } from '/src/ui/registryFacts.ts';
export default registryFacts();`,
};
const BUILT_MODULE_INPUTS = /[\\/]src[\\/](core|worker|state|import|ui[\\/]samples|ui[\\/]registryFacts)/;
function builtModules(): Plugin {
  let root = process.cwd();
  const built = new Map<string, Promise<string>>();
  const entryId = (id: string) => `${id}-entry`;
  const entries: Plugin = {
    name: 'chunkscope-built-module-entries',
    resolveId: (source) => (Object.keys(BUILT_MODULES).some((id) => source === entryId(id)) ? `\0${source}` : null),
    load: (id) => Object.entries(BUILT_MODULES).find(([name]) => id === `\0${entryId(name)}`)?.[1] ?? null,
  };
  const build = async (name: string): Promise<string> => {
    const { runnerImport } = await import('vite');
    const { module } = await runnerImport<{ default: unknown }>(entryId(name), { configFile: false, root, logLevel: 'error', plugins: [entries] });
    return `export default ${JSON.stringify(module.default)};`;
  };
  return {
    name: 'chunkscope-built-modules',
    configResolved(config) {
      root = config.root;
    },
    resolveId: (source) => (source in BUILT_MODULES ? `\0${source}` : null),
    load(id) {
      const name = id.startsWith('\0') ? id.slice(1) : '';
      if (!(name in BUILT_MODULES)) return null;
      let code = built.get(name);
      if (!code) built.set(name, (code = build(name)));
      return code;
    },
    configureServer(server) {
      server.watcher.on('change', (file) => {
        if (!BUILT_MODULE_INPUTS.test(file)) return;
        built.clear();
        const graph = server.environments.client.moduleGraph;
        for (const name of Object.keys(BUILT_MODULES)) {
          const module = graph.getModuleById(`\0${name}`);
          if (module) graph.invalidateModule(module);
        }
      });
    },
  };
}

type ModuleGraph = { getModuleInfo(id: string): { importedIds: readonly string[] } | null };

/** The modules `entry` imports statically, itself and its imports' imports included. */
function staticGraph(graph: ModuleGraph, entry: string): Set<string> {
  const seen = new Set<string>();
  const visit = (id: string) => {
    if (seen.has(id)) return;
    const info = graph.getModuleInfo(id);
    if (!info) return;
    seen.add(id);
    info.importedIds.forEach(visit);
  };
  visit(entry);
  return seen;
}

/**
 * One chunk for everything `entry` imports statically (less what `besides` imports: the page's entry), rather than
 * the two dozen small shared chunks the bundler would make of it (the store, the option rows, the units…). Each file
 * is a request, and on a slow network (the workshop profile: 150 ms latency, six connections per host over HTTP/1.1)
 * each round of requests costs a round trip before the first paint. Lazy chunks import from it as before.
 */
function oneChunkFor(name: string, entry: string, besides?: string, except?: RegExp) {
  // One set per build (the worker options serve every worker's build: each has its own graph).
  const membersOf = new WeakMap<ModuleGraph, Set<string>>();
  const entryIn = (graph: ModuleGraph, file: string) =>
    // A worker's entry is its file with Vite's worker query.
    [resolve(file), `${resolve(file)}?worker_file&type=module`].find((id) => graph.getModuleInfo(id));
  return {
    debugName: name,
    name: (id: string, graph: ModuleGraph) => {
      let members = membersOf.get(graph);
      if (!members) {
        const entryId = entryIn(graph, entry);
        members = entryId ? staticGraph(graph, entryId) : new Set<string>();
        const besidesId = besides ? entryIn(graph, besides) : undefined;
        if (besidesId) for (const other of staticGraph(graph, besidesId)) members.delete(other);
        membersOf.set(graph, members);
      }
      return members.has(id) && !except?.test(id) ? name : null;
    },
  };
}

/**
 * The retrievers, the evaluation code and the sentence segmenter: the page's first screen imports their folders
 * through the engine's descriptions (src/core/describe.ts re-exports them) but runs them only in the lab (and the
 * worker). Two things kept them in the app
 * chunk: `oneChunkFor` puts in it every module the app imports statically, used there or not (a module a lazy chunk
 * uses then lands in the app chunk), and their top-level tables (`new Set(...)`, `Object.fromEntries(...)`) count
 * as side effects, which tree-shaking must keep. They register nothing at import (the registries are plain arrays),
 * so they are declared free of side effects in the app's build and left out of the app chunk's group: what the first
 * screen uses of them (the retriever descriptors, the golden-set parser the lab slice holds) stays in the app chunk,
 * the rest goes to the lab's lazy chunks.
 */
const LAB_ENGINE = /[\\/]src[\\/]core[\\/](retrievers|eval|segment)[\\/]/;

export default defineConfig({
  plugins: [react(), builtModules(), contentSecurityPolicy(), serviceWorker(), monacoAppendLines(), preloadApp()],
  resolve: {
    alias: [
      // The markdown parser decodes entities with decode-named-character-reference, whose "browser" build uses
      // document.createElement: the chunk worker has no document. Its plain build works everywhere.
      { find: /^decode-named-character-reference$/, replacement: require.resolve('decode-named-character-reference') },
    ],
  },
  appType: 'mpa',
  // Module workers: the embedding worker imports transformers.js, which is ESM with top-level await.
  // The chunk worker's first chunk holds what a first job runs (the default strategy included): one file.
  worker: { format: 'es', rolldownOptions: { output: { codeSplitting: { groups: [oneChunkFor('chunk-worker-first', 'src/worker/chunk.worker.ts')] } } } },
  // transformers.js and onnxruntime-web load their wasm and helper modules relative to their own files; the dep
  // optimizer's pre-bundling moves them and breaks those URLs (the worker then fails to start the runtime).
  optimizeDeps: { exclude: ['@huggingface/transformers', 'onnxruntime-web'] },
  server: { headers: isolationHeaders },
  preview: { headers: { ...isolationHeaders, ...cspHeaders } },
  // The app goes to dist/app: dist/lib holds the CLI and library (built by the prepare script), which an
  // emptied dist/ would delete.
  // APP_OUT_DIR: a private build folder, so several people can build and run e2e at once on one machine.
  build: {
    outDir: process.env.APP_OUT_DIR ?? 'dist/app',
    target: 'es2022',
    chunkSizeWarningLimit: 4000,
    // The app's first screen (src/startApp.tsx and its static imports) as one modulepreloaded file.
    rolldownOptions: {
      output: { codeSplitting: { groups: [oneChunkFor('app', 'src/startApp.tsx', 'src/main.tsx', LAB_ENGINE)] } },
      treeshake: { moduleSideEffects: (id: string) => (LAB_ENGINE.test(id) ? false : undefined) },
    },
  },
});
