/** Exports of chunks to other tools, their re-import and "copy as code" (pure; the page and CLI wire these in). */
export { EXPORTERS, getExporter, isNativeExporter, type Exporter, type ExportAbout, type ExportFormat, type NativeExportFormat } from './exporters';
export { parseChunkExport, MAX_REIMPORT_LENGTH, type ChunkExportImport } from './reimport';
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
export { CLI_TARGET, CLI_TARGET_LABEL, codeFor, loadCopyAsCode, reproducesExactly, jsString, pyString, CODE_TARGETS, CODE_TARGET_LABELS, CODE_TARGET_RUNTIME, targetsFor, type CodeTarget } from './copyAsCode';
export { cliCommandFor, cliArgumentsFor, shellQuote, type CliCommandName, type CliCommandSettings } from './cliCommand';
