/**
 * A generated corpus for the corpus tests and bench: a few hundred documents of mixed types (markdown, text, HTML,
 * source files, a PDF and a DOCX made by scripts/make-fixtures.mjs), plus the files that must fail (binary,
 * invalid UTF-8, an unreadable PDF) and an empty file, from a seed. Not shipped: only tests import it.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { layoutDocument, makeDocx, makePdf, travelPolicyBlocks } from '../../scripts/make-fixtures.mjs';
import { seededRandom } from '../core/random';

export { seededRandom };


const WORDS = 'index chunk retrieval answer policy travel corpus vector embedding document section table budget claim hotel receipt model window overlap token'.split(' ');

export function sentence(random: () => number, words = 8 + Math.floor(random() * 12)): string {
  const out = Array.from({ length: words }, () => WORDS[Math.floor(random() * WORDS.length)]!);
  out[0] = out[0]![0]!.toUpperCase() + out[0]!.slice(1);
  return out.join(' ') + '.';
}

function paragraphs(random: () => number, count: number): string[] {
  return Array.from({ length: count }, () => Array.from({ length: 2 + Math.floor(random() * 4) }, () => sentence(random)).join(' '));
}

export function markdownDocument(random: () => number, title: string): string {
  const parts = [`# ${title}`];
  for (let s = 0; s < 1 + Math.floor(random() * 3); s++) parts.push(`## Part ${s + 1}`, ...paragraphs(random, 1 + Math.floor(random() * 3)));
  return parts.join('\n\n') + '\n';
}

/** Writes the corpus under `root`; returns the ids that must fail. */
export async function writeTestCorpus(root: string, seed = 27, documents = 300): Promise<{ failing: string[] }> {
  const random = seededRandom(seed);
  const put = (id: string, data: string | Uint8Array) => {
    mkdirSync(dirname(join(root, id)), { recursive: true });
    writeFileSync(join(root, id), data);
  };
  for (let i = 0; i < documents; i++) {
    const folder = `part-${i % 7}`;
    const kind = i % 5;
    if (kind === 0 || kind === 1) put(`${folder}/note-${i}.md`, markdownDocument(random, `Note ${i}`));
    else if (kind === 2) put(`${folder}/text-${i}.txt`, paragraphs(random, 2 + (i % 4)).join('\n\n') + '\n');
    else if (kind === 3) put(`${folder}/page-${i}.html`, `<html><body><h1>Page ${i}</h1>${paragraphs(random, 2).map((p) => `<p>${p}</p>`).join('')}</body></html>\n`);
    else put(`${folder}/code-${i}.${i % 2 ? 'py' : 'ts'}`, i % 2 ? `def f${i}(x):\n    """${sentence(random)}"""\n    return x + ${i}\n` : `export function f${i}(x: number): number {\n  // ${sentence(random)}\n  return x + ${i};\n}\n`);
  }
  put('docs/travel-policy.pdf', makePdf(layoutDocument(travelPolicyBlocks(), { header: 'ACME Travel Policy' })));
  put('docs/expense-guide.docx', await makeDocx());
  put('docs/empty.txt', '');
  put('broken/binary.txt', new Uint8Array([0x89, 0x50, 0x00, 0x00, 0x01, 0x02, 0x03, 0x00]));
  put('broken/latin1.txt', new Uint8Array([0x63, 0x61, 0x66, 0xe9, 0x20, 0x6e, 0x6f, 0xeb, 0x6c, 0x0a]));
  put('broken/not-a.pdf', 'this is not a PDF at all\n');
  put('ignored/image.png', new Uint8Array([0x89, 0x50, 0x4e, 0x47]));
  return { failing: ['broken/binary.txt', 'broken/latin1.txt', 'broken/not-a.pdf'] };
}
