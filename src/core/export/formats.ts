/**
 * Chunk exports for other tools: CSV (RFC 4180), LangChain Document JSON and LlamaIndex TextNode JSON.
 * Pure functions over the chunk contract (src/core/types.ts); the JSON/JSONL export stays in ../format.ts.
 */
import type { Chunk } from '../types';

// ---------------------------------------------------------------------------------------------------------------
// CSV

export const CSV_COLUMNS = [
  'index', 'start', 'end', 'size', 'id', 'text', 'content', 'heading_path', 'content_type', 'pages', 'parent_id', 'metadata',
] as const;

/** How the CSV joins a heading path (the exact array stays in the metadata column). */
export const CSV_HEADING_SEPARATOR = ' > ';

/** RFC 4180: a field holding a comma, a double quote, CR or LF is quoted, and its quotes are doubled. */
export function csvField(value: string): string {
  return /[",\r\n]/.test(value) ? '"' + value.replace(/"/g, '""') + '"' : value;
}

/**
 * Chunks as CSV: a header row, then one row per chunk; `metadata` is its JSON. The structure metadata also gets
 * columns of its own for spreadsheets: heading_path (titles joined with " > "), content_type, pages (1-based numbers
 * joined with ";") and parent_id; empty when the chunk has none. Records end with CRLF as RFC 4180 says (line breaks
 * inside quoted fields are kept as they are in the text). Offsets are UTF-16 code units.
 */
export function toCsv(chunks: readonly Chunk[]): string {
  const rows = [CSV_COLUMNS.join(',')];
  for (const c of chunks) {
    const m = c.metadata;
    const fields = [
      String(c.index), String(c.start), String(c.end), String(c.size), c.id, c.text, c.content,
      Array.isArray(m.headingPath) ? m.headingPath.join(CSV_HEADING_SEPARATOR) : '',
      m.contentType ?? '',
      Array.isArray(m.pages) ? m.pages.join(';') : '',
      m.parentId ?? '',
      JSON.stringify(m),
    ];
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
 * One LangChain Document per chunk: pageContent is the chunk's content; metadata carries the chunk's metadata flat
 * (headingPath as an array of titles, contentType, caption, pages, language, parentId, level, ...), then
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
 * "1", "2", ...: SOURCE "1", PREVIOUS "2", NEXT "3", PARENT "4", CHILD "5" (a list); ObjectType TEXT "1", DOCUMENT "4".
 */
export const LLAMA_RELATIONSHIP = { SOURCE: '1', PREVIOUS: '2', NEXT: '3', PARENT: '4', CHILD: '5' } as const;
export const LLAMA_OBJECT_TYPE = { TEXT: '1', DOCUMENT: '4' } as const;

export interface LlamaRelatedNodeInfo {
  node_id: string;
  node_type: string;
  metadata: Record<string, unknown>;
  hash: null;
  class_name: 'RelatedNodeInfo';
}

/** Relationships keyed by NodeRelationship's serialized value; CHILD holds a list, the others one node. */
export interface LlamaRelationships {
  [LLAMA_RELATIONSHIP.SOURCE]: LlamaRelatedNodeInfo;
  [LLAMA_RELATIONSHIP.PREVIOUS]?: LlamaRelatedNodeInfo;
  [LLAMA_RELATIONSHIP.NEXT]?: LlamaRelatedNodeInfo;
  [LLAMA_RELATIONSHIP.PARENT]?: LlamaRelatedNodeInfo;
  [LLAMA_RELATIONSHIP.CHILD]?: LlamaRelatedNodeInfo[];
}

export interface LlamaTextNode {
  id_: string;
  embedding: null;
  metadata: Record<string, unknown>;
  excluded_embed_metadata_keys: string[];
  excluded_llm_metadata_keys: string[];
  relationships: LlamaRelationships;
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

/**
 * Metadata keys that only describe how Chunkscope cut the text: kept out of what LlamaIndex embeds and shows. The
 * heading path, caption, pages and language stay visible (they help matching and citation).
 */
const BOOKKEEPING_KEYS = [
  'strategy', 'compat', 'unit', 'oversize', 'distanceBefore', 'start', 'end', 'chunk_index', 'documentId', 'position',
  'contentType', 'parentId', 'level', 'leaf', 'window', 'window_start', 'window_end', 'prefix', 'prefixSize', 'chunker',
  'chunkerVersion', 'signature', 'original_text',
];

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
 * the chunk id, `text` its content, relationships SOURCE (the document), PREVIOUS and NEXT (the neighbouring chunks
 * of the same retrieval level), PARENT (from `parentId`) and CHILD (the chunks naming this one as parent), by id.
 * A sentence-window chunk gets LlamaIndex's SentenceWindowNodeParser keys when the source text is given: `window`
 * (the window's text, what MetadataReplacementPostProcessor puts in place of the sentence) and `original_text`;
 * the window's offsets move to `window_start` / `window_end`. In compat mode `llamaindex` they are the package's own
 * strings (SentenceWindowNodeParser's `window` joins the sentences with one space).
 */
export function toLlamaIndexNodes(chunks: readonly Chunk[], options: LlamaIndexExportOptions): LlamaTextNode[] {
  const offsets = options.sourceText === undefined
    ? chunks.flatMap((c) => [c.start, c.end])
    : codePointOffsets(options.sourceText, chunks.flatMap((c) => [c.start, c.end]));
  // Neighbours within a level (parents and children are interleaved in parent-child output), children per parent.
  const levelOf = (c: Chunk): number => (typeof c.metadata.level === 'number' ? c.metadata.level : 0);
  const previous = new Map<number, string>();
  const next = new Map<number, string>();
  const lastAtLevel = new Map<number, number>();
  chunks.forEach((c, i) => {
    const before = lastAtLevel.get(levelOf(c));
    if (before !== undefined) {
      previous.set(i, chunks[before]!.id);
      next.set(before, c.id);
    }
    lastAtLevel.set(levelOf(c), i);
  });
  const children = new Map<string, string[]>();
  for (const c of chunks) {
    if (typeof c.metadata.parentId !== 'string') continue;
    const list = children.get(c.metadata.parentId) ?? [];
    list.push(c.id);
    children.set(c.metadata.parentId, list);
  }
  return chunks.map((c, i) => {
    const relationships: LlamaRelationships = {
      [LLAMA_RELATIONSHIP.SOURCE]: related(options.documentId, LLAMA_OBJECT_TYPE.DOCUMENT),
    };
    if (previous.has(i)) relationships[LLAMA_RELATIONSHIP.PREVIOUS] = related(previous.get(i)!, LLAMA_OBJECT_TYPE.TEXT);
    if (next.has(i)) relationships[LLAMA_RELATIONSHIP.NEXT] = related(next.get(i)!, LLAMA_OBJECT_TYPE.TEXT);
    if (typeof c.metadata.parentId === 'string') relationships[LLAMA_RELATIONSHIP.PARENT] = related(c.metadata.parentId, LLAMA_OBJECT_TYPE.TEXT);
    const kids = children.get(c.id);
    if (kids) relationships[LLAMA_RELATIONSHIP.CHILD] = kids.map((id) => related(id, LLAMA_OBJECT_TYPE.TEXT));
    const metadata: Record<string, unknown> = { ...c.metadata, start: c.start, end: c.end, chunk_index: c.index };
    const window = c.metadata.window;
    if (window && options.sourceText !== undefined) {
      delete metadata.window;
      metadata.window_start = window.start;
      metadata.window_end = window.end;
      // Compat llamaindex carries the package's own window string (its sentences joined with one space).
      metadata.window = typeof c.metadata.windowText === 'string' ? c.metadata.windowText : options.sourceText.slice(window.start, window.end);
      metadata.original_text = typeof c.metadata.originalText === 'string' ? c.metadata.originalText : c.text;
      delete metadata.windowText;
      delete metadata.originalText;
    }
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
