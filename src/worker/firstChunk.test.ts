import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * The chunk worker's first chunk is everything src/worker/chunk.worker.ts imports statically (vite.config.ts,
 * oneChunkFor): the modules the default first job (recursive, characters, native mode) does not run must be reached
 * only through a dynamic import, or they are fetched before every first paint (issue 28). This walks the static
 * imports as the bundler does (type-only imports are erased) and names what must stay out.
 */

const root = resolve(__dirname, '../..');

/** Import and re-export statements at the start of a line (the project's style), their clause and module. */
const STATEMENT = /^(?:import|export)\s+(?:([^'";]*?)\s+from\s+)?['"]([^'"]+)['"]/gm;

/** Whether an import or export clause brings only types (erased by the bundler): `type {…}`, `{ type A, type B }`. */
function onlyTypes(clause: string): boolean {
  const c = clause.trim();
  if (/^type\s/.test(c)) return true;
  const braces = /^\{([\s\S]*)\}$/.exec(c);
  if (!braces) return false;
  const names = braces[1]!.split(',').map((n) => n.trim()).filter(Boolean);
  return names.length > 0 && names.every((n) => /^type\s/.test(n));
}

/** The relative modules a file imports for their values (not `import type`, not an import of types only). */
function staticImports(file: string): string[] {
  const found: string[] = [];
  for (const [, clause, specifier] of readFileSync(file, 'utf8').matchAll(STATEMENT)) {
    if (specifier!.startsWith('.') && !(clause !== undefined && onlyTypes(clause))) found.push(specifier!);
  }
  return found;
}

function resolveModule(from: string, specifier: string): string | null {
  const base = resolve(dirname(from), specifier);
  for (const candidate of [base, `${base}.ts`, `${base}.tsx`, join(base, 'index.ts')]) {
    if (/\.tsx?$/.test(candidate) && existsSync(candidate)) return candidate;
  }
  return null; // an asset (`?url`) or a file that is not TypeScript
}

function staticallyReached(entry: string): Set<string> {
  const seen = new Set<string>([resolve(root, entry)]);
  const queue = [...seen];
  while (queue.length > 0) {
    const file = queue.shift()!;
    for (const specifier of staticImports(file)) {
      const target = resolveModule(file, specifier);
      if (target && !seen.has(target)) {
        seen.add(target);
        queue.push(target);
      }
    }
  }
  return new Set([...seen].map((f) => relative(root, f)));
}

describe("the chunk worker's first chunk", () => {
  const reached = staticallyReached('src/worker/chunk.worker.ts');

  it('holds what the default first job runs', () => {
    for (const needed of ['src/core/chunk.ts', 'src/core/optionTable.ts', 'src/core/merge.ts', 'src/core/strategies/recursive/split.ts', 'src/worker/chunkService.ts']) {
      expect(reached, needed).toContain(needed);
    }
  });

  it('leaves out the token units, compat modes, retrieval patterns, headers, semantic analysis and orphan flags', () => {
    const lazy = [
      /^src\/core\/units\/(tiktoken|tiktokenMeter|bpe|bpeBacktrack|pairTable|words)\.ts$/,
      /^src\/core\/compat\/(langchain|chonkie|llamaindex)\/(?!profile\.ts$)/,
      /^src\/core\/patterns\/(?!limits\.ts$)/,
      /^src\/core\/headers\.ts$/,
      /^src\/core\/semantic\//,
      /^src\/core\/eval\//,
      /^src\/core\/strategies\/code\/grammarRules\.ts$/,
      /^src\/embed\//,
      /^src\/worker\/(embedderTokens|labService)\.ts$/,
    ];
    expect([...reached].filter((f) => lazy.some((r) => r.test(f)))).toEqual([]);
  });
});
