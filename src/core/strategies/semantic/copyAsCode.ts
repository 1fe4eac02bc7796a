import { chonkieProgram, isTokenUnit, jsHead, langchainPyProgram, llamaindexProgram, pyString, type CopyAsCodeRecipes } from '../../export/programs';
import type { ResolvedOptions } from '../../types';

/** LangChain Python SemanticChunker arguments; its breakpoint types are Chunkscope's modes except `absolute`. */
function langchainSemanticArgs(o: ResolvedOptions): string[] {
  const mode = o.breakpoint ?? 'percentile';
  const args = [`breakpoint_threshold_type=${pyString(mode === 'absolute' ? 'percentile' : mode)}`];
  if (o.amount !== null && o.amount !== undefined && mode !== 'absolute') args.push(`breakpoint_threshold_amount=${o.amount}`);
  if (o.chunks) args.push(`number_of_chunks=${o.chunks}`);
  args.push(`buffer_size=${o.buffer ?? 1}`);
  if (o.minSize) args.push(`min_chunk_size=${o.minSize}`);
  return args;
}

/** Chunkscope's built-in static model is no hub model: the programs use a small sentence-transformers one. */
function embedderName(o: ResolvedOptions): string {
  return o.embedder && o.embedder !== 'builtin' ? o.embedder : 'sentence-transformers/all-MiniLM-L6-v2';
}

/** Semantic chunking: SemanticChunker (LangChain Python), SemanticSplitterNodeParser, Chonkie's SemanticChunker. */
export const recipes: CopyAsCodeRecipes = {
  'langchain-js': (o) =>
    [
      ...jsHead(o, undefined, '@langchain/textsplitters' + (isTokenUnit(o.unit) ? ' js-tiktoken' : '')),
      '// LangChain JS has no semantic splitter (SemanticChunker exists in Python, langchain_experimental): use the',
      '// langchain-python target, or run Chunkscope itself: chunk(text, { strategy: "semantic" }, { embed }).',
      '',
    ].join('\n'),
  'langchain-python': (o) =>
    langchainPyProgram(
      o,
      {
        imports: ['from langchain_experimental.text_splitter import SemanticChunker', 'from langchain_huggingface import HuggingFaceEmbeddings'],
        notes: [
          "# Chunkscope's built-in static model is not a Hugging Face model: this uses a sentence-transformers model instead.",
          ...((o.breakpoint ?? 'percentile') === 'absolute' ? ['# LangChain has no absolute distance threshold; closest: a percentile.'] : []),
          ...(o.maxSize ? [`# SemanticChunker has no maximum size (Chunkscope's maxSize ${o.maxSize}).`] : []),
        ],
        expr: `SemanticChunker(\n    HuggingFaceEmbeddings(model_name=${pyString(embedderName(o))}),\n    ${langchainSemanticArgs(o).join(',\n    ')},\n)`,
      },
      'langchain-experimental langchain-huggingface sentence-transformers',
    ),
  llamaindex: (o) =>
    llamaindexProgram(o, {
      pip: 'llama-index-core llama-index-embeddings-huggingface',
      imports: ['from llama_index.core.node_parser import SemanticSplitterNodeParser', 'from llama_index.embeddings.huggingface import HuggingFaceEmbedding'],
      notes: (o.breakpoint ?? 'percentile') !== 'percentile' ? [`# LlamaIndex breaks at a percentile only; the ${o.breakpoint} mode has no equivalent.`] : [],
      expr: `SemanticSplitterNodeParser(\n    embed_model=HuggingFaceEmbedding(model_name=${pyString(embedderName(o))}),\n    buffer_size=${o.buffer ?? 1},\n    breakpoint_percentile_threshold=${o.breakpoint === 'percentile' && o.amount != null ? o.amount : 95},\n)`,
    }),
  chonkie: (o) =>
    chonkieProgram(o, {
      notes: ["# Chonkie's SemanticChunker uses its own threshold (a similarity, not Chunkscope's breakpoint modes)."],
      imports: ['from chonkie import SemanticChunker'],
      expr: `SemanticChunker(embedding_model=${pyString(o.embedder && o.embedder !== 'builtin' ? o.embedder : 'minishlab/potion-base-32M')}${o.maxSize ? `, chunk_size=${o.maxSize}` : ''})`,
    }),
};
