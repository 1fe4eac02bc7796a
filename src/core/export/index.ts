/** Exports of chunks to other tools and "copy as code" (pure; the page and CLI wire these in). */
export {
  toCsv,
  csvField,
  CSV_COLUMNS,
  CSV_HEADING_SEPARATOR,
  toLangChainDocuments,
  toLlamaIndexNodes,
  codePointOffsets,
  LLAMA_RELATIONSHIP,
  LLAMA_OBJECT_TYPE,
  type LangChainDocument,
  type LangChainExportOptions,
  type LlamaTextNode,
  type LlamaRelatedNodeInfo,
  type LlamaRelationships,
  type LlamaIndexExportOptions,
} from './formats';
export { codeFor, reproducesExactly, jsString, pyString, CODE_TARGETS, CODE_TARGET_LABELS, CODE_TARGET_RUNTIME, targetsFor, type CodeTarget } from './copyAsCode';
