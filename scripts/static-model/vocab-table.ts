/**
 * Writes the built-in model's precompiled vocabulary table (src/embed/static/vocabFile.ts) beside its tokenizer.json:
 *
 *   npm run model:vocab-table [folder]     default public/models/chunkscope-static-en
 *
 * Run it after the model's tokenizer.json changes; src/embed/static/vocabFile.test.ts fails until then.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { compileVocabFile } from '../../src/embed/static/compileVocabFile';

const folder = process.argv[2] ?? 'public/models/chunkscope-static-en';
const compiled = compileVocabFile((name) => readFileSync(join(folder, name)));
if ('refused' in compiled) {
  console.error(`${folder}: not a tokenizer the direct path runs (${compiled.refused}); nothing written`);
  process.exit(1);
}
writeFileSync(join(folder, 'vocab-table.bin'), compiled.bytes);
console.log(`${join(folder, 'vocab-table.bin')}: ${compiled.bytes.length} bytes`);
