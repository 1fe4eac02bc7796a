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

/** The look-ups over a list of retrievers (a test builds them over the registry plus a fixture). */
export function registryOf<Name extends string>(retrievers: readonly RetrieverDescriptor<Name>[]) {
  return {
    /** The retrievers' names, in list order (the option table's `retriever` choices). */
    RETRIEVER_NAMES: retrievers.map((r) => r.name) as readonly Name[],
    /** A retriever's descriptor (throws on an unknown name; validateEvalOptions names the option first). */
    getRetriever(name: string): RetrieverDescriptor {
      const found = retrievers.find((r) => r.name === name);
      if (!found) throw new Error(`unknown retriever "${name}"`);
      return found;
    },
  };
}

export const { RETRIEVER_NAMES, getRetriever } = registryOf<RetrieverName>(RETRIEVER_REGISTRY);
