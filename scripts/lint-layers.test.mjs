// `node --test scripts/lint-layers.test.mjs`: the layer lint still catches what it is meant to catch.
// Each case is a tiny source tree in a temporary folder, linted as if it were this repository's src/.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { lintLayers } from './lint-layers.mjs';

const SCRIPT = join(dirname(fileURLToPath(import.meta.url)), 'lint-layers.mjs');

function tree(files) {
  const root = mkdtempSync(join(tmpdir(), 'chunkscope-lint-'));
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), text);
  }
  return root;
}

/** A layout that keeps the rules: the cases below add one file each to it. */
const CLEAN = {
  'src/main.tsx': "import { App } from './ui/App';\nexport const root = <App />;\n",
  'src/ui/App.tsx': "import { useStore } from '../state/store';\nimport type { Chunk } from '../core/describe';\nexport const App = (): Chunk | null => useStore();\n",
  'src/state/store.ts': "import { client } from '../bridge/client';\nimport { describe } from '../core/describe';\nexport const useStore = () => (client, describe, null);\n",
  'src/bridge/client.ts': "import type { Api } from '../worker/chunk.worker';\nexport const client = new Worker(new URL('../worker/chunk.worker.ts', import.meta.url)) as unknown as Api;\n",
  'src/worker/chunk.worker.ts': "import { split } from '../core/strategies/md/split';\nexport type Api = typeof split;\n",
  'src/core/describe.ts': "import { md } from './strategies/md/index';\n// type-only: erased, so the main thread does not load the splitter\nimport type { Options } from './strategies/md/split';\nexport type Chunk = Options;\nexport const describe = [md];\nexport const load = () => import('./strategies/md/split');\n",
  'src/core/strategies/md/index.ts': "export const md = { id: 'md' };\n",
  'src/core/strategies/md/split.ts': "import { parse } from '../../structure/markdown';\nexport type Options = { size: number };\nexport const split = parse;\n",
  'src/core/structure/markdown.ts': "import { fromMarkdown } from 'mdast-util-from-markdown';\nexport const parse = fromMarkdown;\n",
  'src/core/fixture.test.ts': "import { client } from '../bridge/client';\nexport const t = client;\n",
};

async function violations(extra) {
  const root = tree({ ...CLEAN, ...extra });
  try {
    return await lintLayers(['src'], { baseDir: root });
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}

test('a clean layout has no violations (type-only and dynamic imports of worker-only code are allowed)', async () => {
  assert.deepEqual(await violations({}), []);
});

test('rule 1: ui must not import worker or bridge, type-only imports included', async () => {
  const lines = await violations({
    'src/ui/Bad.tsx': "import { client } from '../bridge/client';\nexport const Bad = () => client;\n",
    'src/ui/BadType.ts': "import type { Api } from '../worker/chunk.worker';\nexport type X = Api;\n",
  });
  assert.deepEqual(lines, [
    'src/ui/Bad.tsx → ../bridge/client (src/bridge/client.ts)  [ui-imports-state-and-core-only]',
    'src/ui/BadType.ts → ../worker/chunk.worker (src/worker/chunk.worker.ts)  [ui-imports-state-and-core-only]',
  ]);
});

test('rule 2: core must not import outside core, even dynamically; npm packages are fine', async () => {
  const lines = await violations({
    'src/core/leak.ts': "import { useStore } from '../state/store';\nimport { fromMarkdown } from 'mdast-util-from-markdown';\nexport const leak = [useStore, fromMarkdown];\n",
    'src/core/lazy.ts': "export const lazy = () => import('../embed/index');\n",
    'src/embed/index.ts': 'export const embed = 1;\n',
  });
  assert.deepEqual(lines, [
    'src/core/lazy.ts → ../embed/index (src/embed/index.ts)  [core-imports-only-core]',
    'src/core/leak.ts → ../state/store (src/state/store.ts)  [core-imports-only-core]',
  ]);
});

test('rule 3: main-thread code must not reach worker-only code or parser packages, directly or transitively', async () => {
  const lines = await violations({
    // transitively: a core entry point that pulls a splitter in
    'src/core/index.ts': "export { split } from './strategies/md/split';\n",
    'src/state/controller.ts': "import { split } from '../core/index';\nexport const run = split;\n",
    // directly: a parser package and a structure file
    'src/bridge/html.ts': "import { Parser } from 'htmlparser2';\nexport const P = Parser;\n",
    'src/ui/Outline.tsx': "import { parse } from '../core/structure/markdown';\nexport const Outline = () => parse('');\n",
  });
  assert.deepEqual(lines, [
    'src/bridge/html.ts → htmlparser2 reaches worker-only htmlparser2  [main-thread-no-worker-only-code]',
    'src/state/controller.ts → src/core/index.ts reaches worker-only src/core/strategies/md/split.ts  [main-thread-no-worker-only-code]',
    'src/ui/Outline.tsx → src/core/structure/markdown.ts reaches worker-only src/core/structure/markdown.ts  [main-thread-no-worker-only-code]',
  ]);
});

test('rule 4: an import circle across folders fails, type-only ones included; a circle inside one folder is allowed', async () => {
  const lines = await violations({
    // across folders, through a type-only import and a type-position import('...')
    'src/core/types.ts': "export type Name = import('./strategies/list').Id;\n",
    'src/core/strategies/list.ts': "import type { Name } from '../types';\nexport type Id = 'md';\nexport const names: Name[] = [];\n",
    // inside one folder: allowed
    'src/state/a.ts': "import { b } from './b';\nexport const a = () => b;\n",
    'src/state/b.ts': "import { a } from './a';\nexport const b = () => a;\n",
  });
  assert.deepEqual(lines, [
    'import circle across folders (2 files): src/core/strategies/list.ts → src/core/types.ts → src/core/strategies/list.ts  [no-circle-across-folders]',
  ]);
});

test('the command exits 1 and prints one line per violation', () => {
  const root = tree({ ...CLEAN, 'src/ui/Bad.tsx': "import { split } from '../worker/chunk.worker';\nexport const Bad = split;\n" });
  try {
    const bad = spawnSync(process.execPath, [SCRIPT], { cwd: root, encoding: 'utf8' });
    assert.equal(bad.status, 1, bad.stderr);
    assert.equal(bad.stdout, 'src/ui/Bad.tsx → ../worker/chunk.worker (src/worker/chunk.worker.ts)  [ui-imports-state-and-core-only]\n');
    assert.match(bad.stderr, /1 layer violation/);
    rmSync(join(root, 'src/ui/Bad.tsx'));
    const good = spawnSync(process.execPath, [SCRIPT], { cwd: root, encoding: 'utf8' });
    assert.equal(good.status, 0, good.stdout + good.stderr);
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
});
