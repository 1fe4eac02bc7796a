/**
 * Documents the e2e tests paste. Generated from a seed so a failure reproduces; written for these tests (not
 * copied from anywhere). Paragraphs of varying length, markdown headings, a list, and a few non-ASCII
 * characters (accents, CJK, an emoji as a surrogate pair) so offsets are UTF-16 offsets, not byte or
 * code-point offsets. Lines end in \n only: Monaco normalizes line endings, so \r\n would not round-trip.
 */

const WORDS = (
  'the chunk boundary overlap retrieval index document section paragraph sentence token window size ' +
  'policy employee leave request manager approval travel expense receipt budget quarter review ' +
  'system latency cache request response worker thread queue schedule deploy release rollback ' +
  'café naïve résumé 東京 数据 🙂'
).split(' ');

/** A small deterministic PRNG (mulberry32) so the same seed always gives the same document. */
export function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function sentence(next: () => number): string {
  const length = 6 + Math.floor(next() * 14);
  const words: string[] = [];
  for (let i = 0; i < length; i++) words.push(WORDS[Math.floor(next() * WORDS.length)]!);
  const text = words.join(' ');
  return text[0]!.toUpperCase() + text.slice(1) + (next() < 0.15 ? '?' : '.');
}

/** About `approxChars` characters of markdown-ish prose. */
export function makeDocument(approxChars: number, seed = 1): string {
  const next = random(seed);
  const blocks: string[] = [];
  let length = 0;
  let section = 1;
  while (length < approxChars) {
    let block: string;
    const roll = next();
    if (roll < 0.12) {
      block = `## Section ${section++}: ${sentence(next).slice(0, -1)}`;
    } else if (roll < 0.2) {
      const items = 2 + Math.floor(next() * 4);
      block = Array.from({ length: items }, () => `- ${sentence(next)}`).join('\n');
    } else {
      const sentences = 1 + Math.floor(next() * 7);
      block = Array.from({ length: sentences }, () => sentence(next)).join(' ');
    }
    blocks.push(block);
    length += block.length + 2;
  }
  return `# Chunkscope e2e document ${seed}\n\n${blocks.join('\n\n')}\n`;
}
