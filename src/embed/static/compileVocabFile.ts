import { createHash } from 'node:crypto';
import { compileStaticTokenizer, type TokenizerJson } from './tokenizer';
import { encodeVocabFile } from './vocabFile';

/**
 * The vocabulary file for a model folder's tokenizer.json and tokenizer_config.json (read by `read`), recording
 * their SHA-256: what scripts/static-model/vocab-table.ts writes and vocabFile.test.ts compares. Node only.
 */
export function compileVocabFile(read: (name: string) => Uint8Array): { bytes: Uint8Array } | { refused: string } {
  const json = read('tokenizer.json');
  const config = read('tokenizer_config.json');
  const parse = (bytes: Uint8Array): unknown => JSON.parse(new TextDecoder().decode(bytes));
  const compiled = compileStaticTokenizer(parse(json) as TokenizerJson, parse(config) as { unk_token?: unknown });
  if ('refused' in compiled) return compiled;
  const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');
  const compiledFrom = { 'tokenizer.json': sha256(json), 'tokenizer_config.json': sha256(config) };
  return { bytes: encodeVocabFile(compiled, compiledFrom) };
}
