import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CODE_LANGUAGE_ALIASES, CODE_LANGUAGE_NAMES } from '../core/strategies/code/languages';
import { CODE_SAMPLES } from '../../e2e/code-samples';
import { runCli } from '../testing/runCli';

// The code strategy with every listed language (and every alias) chosen explicitly, on a file whose extension
// says nothing (.txt): the grammar must come from --language, never from detection (issue 12: js/ts/tsx failed).

const dir = mkdtempSync(join(tmpdir(), 'chunkscope-codelang-'));

describe('chunkscope chunk --strategy code --language <each>', () => {
  const cases: [string, (typeof CODE_LANGUAGE_NAMES)[number]][] = [
    ...CODE_LANGUAGE_NAMES.map((n) => [n, n] as [string, (typeof CODE_LANGUAGE_NAMES)[number]]),
    ...Object.entries(CODE_LANGUAGE_ALIASES),
  ];
  it.each(cases)('--language %s reads the %s grammar', async (given, grammar) => {
    const path = join(dir, `${grammar}-${given.replace(/\W/g, '_')}.txt`);
    const source = CODE_SAMPLES[grammar];
    writeFileSync(path, source);
    const r = await runCli(['chunk', path, '--strategy', 'code', '--language', given, '--size', '40', '--overlap', '0']);
    expect(r.err).toBe('');
    expect(r.code).toBe(0);
    const chunks = JSON.parse(r.out) as { start: number; end: number; text: string; metadata: { language?: string; contentType?: string } }[];
    expect(chunks.length).toBeGreaterThan(1);
    for (const c of chunks) {
      expect(c.text).toBe(source.slice(c.start, c.end));
      expect(c.metadata.language).toBe(grammar);
    }
  });
});
