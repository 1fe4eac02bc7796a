/**
 * Chunk exports for other tools: CSV (RFC 4180), LangChain Document JSON and LlamaIndex TextNode JSON.
 * Pure functions over the chunk contract (src/core/types.ts); the JSON/JSONL export stays in ../format.ts.
 */
import type { Chunk } from '../types';

// ---------------------------------------------------------------------------------------------------------------
// CSV

export const CSV_COLUMNS = ['index', 'start', 'end', 'size', 'id', 'text', 'content', 'metadata'] as const;

/** RFC 4180: a field holding a comma, a double quote, CR or LF is quoted, and its quotes are doubled. */
export function csvField(value: string): string {
  return /[",\r\n]/.test(value) ? '"' + value.replace(/"/g, '""') + '"' : value;
}

/**
 * Chunks as CSV: a header row, then one row per chunk; `metadata` is its JSON. Records end with CRLF as RFC 4180
 * says (line breaks inside quoted fields are kept as they are in the text). Offsets are UTF-16 code units.
 */
export function toCsv(chunks: readonly Chunk[]): string {
  const rows = [CSV_COLUMNS.join(',')];
  for (const c of chunks) {
    const fields = [String(c.index), String(c.start), String(c.end), String(c.size), c.id, c.text, c.content, JSON.stringify(c.metadata)];
    rows.push(fields.map(csvField).join(','));
  }
  return rows.map((r) => r + '\r\n').join('');
}

// ---------------------------------------------------------------------------------------------------------------
// LangChain Document JSON (the JS shape: { pageContent, metadata, id })

export interface LangChainDocument {
  pageContent: string;
  metadata: Record<string, unknown>;
  id: string;
}

export interface LangChainExportOptions {
  /** The document's name or path, written as metadata.source (LangChain loaders' key). */
  source?: string;
}

/**
 * One LangChain Document per chunk: pageContent is the chunk's content; metadata carries the chunk's metadata, then
 * `start_index` (as `addStartIndex` / `add_start_index` would set it: where the chunk starts in the source, here
 * exact rather than found by searching), our `start`/`end` span (UTF-16, JavaScript string offsets), `chunk_id`,
 * `chunk_index` and `source` when given. LangChain JS Documents also have an optional top-level `id`: the chunk id.
 */
export function toLangChainDocuments(chunks: readonly Chunk[], options: LangChainExportOptions = {}): LangChainDocument[] {
  return chunks.map((c) => ({
    pageContent: c.content,
    metadata: {
      ...c.metadata,
      ...(options.source !== undefined ? { source: options.source } : {}),
      start_index: c.start,
      start: c.start,
      end: c.end,
      chunk_id: c.id,
      chunk_index: c.index,
    },
    id: c.id,
  }));
}

// ---------------------------------------------------------------------------------------------------------------
// LlamaIndex TextNode JSON (llama-index-core schema.py, as TextNode.to_dict() writes it)

/**
 * NodeRelationship and ObjectType are `str` enums with `auto()` values in llama-index-core, so they serialize as
 * "1", "2", ...: SOURCE "1", PREVIOUS "2", NEXT "3"; ObjectType TEXT "1", DOCUMENT "4".
 */
export const LLAMA_RELATIONSHIP = { SOURCE: '1', PREVIOUS: '2', NEXT: '3' } as const;
export const LLAMA_OBJECT_TYPE = { TEXT: '1', DOCUMENT: '4' } as const;

export interface LlamaRelatedNodeInfo {
  node_id: string;
  node_type: string;
  metadata: Record<string, unknown>;
  hash: null;
  class_name: 'RelatedNodeInfo';
}

export interface LlamaTextNode {
  id_: string;
  embedding: null;
  metadata: Record<string, unknown>;
  excluded_embed_metadata_keys: string[];
  excluded_llm_metadata_keys: string[];
  relationships: Record<string, LlamaRelatedNodeInfo>;
  text: string;
  mimetype: 'text/plain';
  start_char_idx: number;
  end_char_idx: number;
  class_name: 'TextNode';
}

export interface LlamaIndexExportOptions {
  /** The source document's id: the SOURCE relationship of every node. */
  documentId: string;
  /**
   * The source text. When given, start_char_idx / end_char_idx count code points, as Python indexes a str (an
   * emoji is one character there, two UTF-16 units here). Without it they are UTF-16 offsets, which are the same
   * only for text without characters outside the Basic Multilingual Plane.
   */
  sourceText?: string;
}

/** Metadata keys that only describe how Chunkscope cut the text: kept out of what LlamaIndex embeds and shows. */
const BOOKKEEPING_KEYS = ['strategy', 'compat', 'unit', 'oversize', 'distanceBefore', 'start', 'end', 'chunk_index'];

function related(nodeId: string, nodeType: string): LlamaRelatedNodeInfo {
  return { node_id: nodeId, node_type: nodeType, metadata: {}, hash: null, class_name: 'RelatedNodeInfo' };
}

/** UTF-16 offsets (sorted or not) to code point offsets in `text`. */
export function codePointOffsets(text: string, offsets: readonly number[]): number[] {
  const order = offsets.map((o, i) => [o, i] as const).sort((a, b) => a[0] - b[0]);
  const out = new Array<number>(offsets.length);
  let unit = 0;
  let points = 0;
  for (const [offset, i] of order) {
    while (unit < offset && unit < text.length) {
      const c = text.charCodeAt(unit);
      const pair = c >= 0xd800 && c <= 0xdbff && unit + 1 < offset && (text.charCodeAt(unit + 1) & 0xfc00) === 0xdc00;
      unit += pair ? 2 : 1;
      points++;
    }
    out[i] = points;
  }
  return out;
}

/**
 * One TextNode-shaped object per chunk (loadable with `TextNode.from_dict` / `TextNode.model_validate`): `id_` is
 * the chunk id, `text` its content, relationships SOURCE (the document), PREVIOUS and NEXT by id.
 */
export function toLlamaIndexNodes(chunks: readonly Chunk[], options: LlamaIndexExportOptions): LlamaTextNode[] {
  const offsets = options.sourceText === undefined
    ? chunks.flatMap((c) => [c.start, c.end])
    : codePointOffsets(options.sourceText, chunks.flatMap((c) => [c.start, c.end]));
  return chunks.map((c, i) => {
    const relationships: Record<string, LlamaRelatedNodeInfo> = {
      [LLAMA_RELATIONSHIP.SOURCE]: related(options.documentId, LLAMA_OBJECT_TYPE.DOCUMENT),
    };
    if (i > 0) relationships[LLAMA_RELATIONSHIP.PREVIOUS] = related(chunks[i - 1]!.id, LLAMA_OBJECT_TYPE.TEXT);
    if (i < chunks.length - 1) relationships[LLAMA_RELATIONSHIP.NEXT] = related(chunks[i + 1]!.id, LLAMA_OBJECT_TYPE.TEXT);
    const metadata: Record<string, unknown> = { ...c.metadata, start: c.start, end: c.end, chunk_index: c.index };
    const excluded = BOOKKEEPING_KEYS.filter((k) => k in metadata);
    return {
      id_: c.id,
      embedding: null,
      metadata,
      excluded_embed_metadata_keys: excluded,
      excluded_llm_metadata_keys: [...excluded],
      relationships,
      text: c.content,
      mimetype: 'text/plain',
      start_char_idx: offsets[2 * i]!,
      end_char_idx: offsets[2 * i + 1]!,
      class_name: 'TextNode',
    };
  });
}
