/**
 * The one per-document cache of the engine: what is expensive to compute from a text and the same for many option
 * settings — the markdown and HTML outlines, the semantic strategy's sentences and embedding inputs, and its
 * analysis (the distances between the embedded windows, their gradient and sorted statistics) per embedder. The
 * page re-runs chunk() on the same document on every slider move: with this cache a new semantic threshold, mode,
 * target count or min/max size skips segmentation and embedding and costs one O(n) re-split.
 *
 * It is also the one owner of the engine's per-document memos, so one bound and one eviction policy govern them all:
 * the document id (ids.ts), separator splits and sentences (segment/), span meters per unit (measure.ts), word
 * ranges (units/words.ts), a token unit's pre-token table, token offsets and spans (units/tiktoken.ts), LangChain
 * token compat's tokenized document. Entries computed with a particular object (a unit, an embedder) name it with
 * `instanceKey`, so a fresh unit starts cold.
 *
 * Bound: least recently used first, at most `maxDocuments` documents and `maxBytes` estimated bytes in all (each
 * document counts its text, 2 bytes per UTF-16 unit, plus its entries' estimates). The document being written to is
 * evicted last: other documents go first, then its own oldest entries. An entry larger than the whole bound is not
 * kept. Defaults: 8 documents, 384 MiB — room for a 1 MiB document's outline, sentences and analysis for a few
 * embedders, and for several smaller documents besides; and for a 16 MiB document's token tables (about 150 MiB
 * for cl100k, once kept outside this bound as the last document's) with its text and meters, without evicting them
 * within one run.
 *
 * Keys are strings chosen by the caller; they must name everything the value depends on besides the text (the
 * options used, and for embeddings which embedder: see `embedderKey`).
 */

export interface DocumentCacheLimits {
  maxDocuments: number;
  maxBytes: number;
}

export const DEFAULT_DOCUMENT_CACHE_LIMITS: DocumentCacheLimits = { maxDocuments: 8, maxBytes: 384 * 1024 * 1024 };

interface Entry {
  value: unknown;
  bytes: number;
}

interface DocumentEntries {
  /** Insertion order is recency: the first entry is the least recently used. */
  entries: Map<string, Entry>;
  bytes: number;
}

export class DocumentCache {
  /** Insertion order is recency: the first document is the least recently used. */
  private readonly documents = new Map<string, DocumentEntries>();
  private total = 0;
  private limits: DocumentCacheLimits;

  constructor(limits: Partial<DocumentCacheLimits> = {}) {
    this.limits = { ...DEFAULT_DOCUMENT_CACHE_LIMITS, ...limits };
  }

  setLimits(limits: Partial<DocumentCacheLimits>): void {
    this.limits = { ...this.limits, ...limits };
    this.evict(null, null);
  }

  /** The value stored for (text, key), marking both as just used; undefined when absent. */
  get<T>(text: string, key: string): T | undefined {
    const doc = this.documents.get(text);
    const entry = doc?.entries.get(key);
    if (!doc || !entry) return undefined;
    this.touch(text, doc);
    doc.entries.delete(key);
    doc.entries.set(key, entry);
    return entry.value as T;
  }

  /** Store `value` for (text, key), `bytes` being its estimated size; returns the value. */
  set<T>(text: string, key: string, value: T, bytes: number): T {
    const ownBytes = text.length * 2;
    if (bytes + ownBytes > this.limits.maxBytes) return value; // would evict everything, itself included
    let doc = this.documents.get(text);
    if (!doc) {
      doc = { entries: new Map(), bytes: ownBytes };
      this.documents.set(text, doc);
      this.total += ownBytes;
    }
    const old = doc.entries.get(key);
    if (old) {
      doc.entries.delete(key);
      doc.bytes -= old.bytes;
      this.total -= old.bytes;
    }
    doc.entries.set(key, { value, bytes });
    doc.bytes += bytes;
    this.total += bytes;
    this.touch(text, doc);
    this.evict(text, key);
    return value;
  }

  /** The cached value, or `compute()` stored with its estimated size. */
  getOrCompute<T>(text: string, key: string, compute: () => T, bytesOf: (value: T) => number): T {
    const hit = this.get<T>(text, key);
    if (hit !== undefined) return hit;
    const value = compute();
    return this.set(text, key, value, bytesOf(value));
  }

  clear(): void {
    this.documents.clear();
    this.total = 0;
  }

  /** Documents, entries and estimated bytes held now (tests, diagnostics). */
  stats(): { documents: number; entries: number; bytes: number } {
    let entries = 0;
    for (const doc of this.documents.values()) entries += doc.entries.size;
    return { documents: this.documents.size, entries, bytes: this.total };
  }

  private touch(text: string, doc: DocumentEntries): void {
    this.documents.delete(text);
    this.documents.set(text, doc);
  }

  private evict(keepText: string | null, keepKey: string | null): void {
    const { maxDocuments, maxBytes } = this.limits;
    for (const [text, doc] of this.documents) {
      if (this.documents.size <= maxDocuments && this.total <= maxBytes) return;
      if (text === keepText) continue;
      this.documents.delete(text);
      this.total -= doc.bytes;
    }
    const doc = keepText === null ? undefined : this.documents.get(keepText);
    if (!doc) return;
    for (const [key, entry] of doc.entries) {
      if (this.total <= maxBytes) return;
      if (key === keepKey) continue;
      doc.entries.delete(key);
      doc.bytes -= entry.bytes;
      this.total -= entry.bytes;
    }
  }
}

/** The engine's cache (one per thread: the page's chunk worker, the CLI's process). */
export const documentCache = new DocumentCache();

/**
 * Estimated bytes of a document outline (markdown, HTML): its blocks and headings are offsets plus short titles, a few
 * words per block; 4 bytes per character of the source is a generous upper estimate for prose and tables.
 */
export function outlineBytes(text: string): number {
  return text.length * 4;
}

const instanceIds = new WeakMap<object, number>();
let nextInstanceId = 1;
/**
 * A key part naming one object (an embed function, a unit): entries computed with two different objects are never
 * mixed up, even under the same name (a fresh unit with empty caches, a test's own embedder). Ids, not a cache: the
 * map is weak and holds no values of its own.
 */
export function instanceKey(kind: string, object: object): string {
  let id = instanceIds.get(object);
  if (id === undefined) {
    id = nextInstanceId++;
    instanceIds.set(object, id);
  }
  return `${kind}#${id}`;
}

/**
 * A key part naming an embed function: vectors from two different functions are never mixed up, even under the same
 * `embedder` option (tests pass their own; the page's worker keeps one function per model, so its entries are reused).
 */
export function embedderKey(embed: object): string {
  return instanceKey('embed', embed);
}
