import { bm25 } from './bm25/retriever';
import { dense } from './dense/retriever';
import { hybrid } from './hybrid/retriever';
import type { RetrieverDescriptor } from './types';

/**
 * The retrievers, one line each (the first is the default). A retriever's folder holds its descriptor
 * (`retriever.ts`: name, label, help, option rows, needsEmbeddings) and its code, loaded by `index()` on first use.
 * Adding one: ./README.md.
 */
export const RETRIEVER_REGISTRY = [
  bm25,
  dense,
  hybrid,
] as const satisfies readonly RetrieverDescriptor[];

/** A registered retriever's name. */
export type RetrieverName = (typeof RETRIEVER_REGISTRY)[number]['name'];

/** The registered retrievers' names, in registry order (the option table's `retriever` choices). */
export const RETRIEVER_NAMES: readonly RetrieverName[] = RETRIEVER_REGISTRY.map((r) => r.name);

/** A retriever's descriptor (throws on an unknown name; validateEvalOptions names the option first). */
export function getRetriever(name: string): RetrieverDescriptor {
  const found = (RETRIEVER_REGISTRY as readonly RetrieverDescriptor[]).find((r) => r.name === name);
  if (!found) throw new Error(`unknown retriever "${name}"`);
  return found;
}
