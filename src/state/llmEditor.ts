import type { Range } from '../core/types';
import { toChunkOptions } from './chunkOptions';
import { documentFacts } from './jobs';
import type { LlmPageResult } from './llmSlice';
import { llmConfigKey } from './llmSettings';
import type { AppState } from './store';

/**
 * What the editor draws of the LLM panel's last run: the result itself when "Show in the editor" is on and the run
 * was over this document's text with the options and LLM settings in force now (else null: a context placed at
 * another configuration's chunk starts would be wrong). Light imports only: the editor loads without the LLM layer.
 */
export function selectLlmInEditor(s: AppState): LlmPageResult | null {
  const r = s.llmResult;
  if (!r || !s.llmInEditor || r.documentSerial !== s.documentSerial || r.source !== s.text) return null;
  return currentConfigKey(s) === r.configKey ? r : null;
}

/** The controller's configKey, memoised on what it reads (the selector runs on every store change). */
let memo: { config: unknown; settings: unknown; docName: unknown; pageStarts: unknown; key: string } | null = null;
function currentConfigKey(s: AppState): string {
  if (memo && memo.config === s.config && memo.settings === s.llmSettings && memo.docName === s.docName && memo.pageStarts === s.pageStarts) return memo.key;
  const key = llmConfigKey(JSON.stringify(toChunkOptions(s.config, documentFacts(s))), s.llmSettings);
  memo = { config: s.config, settings: s.llmSettings, docName: s.docName, pageStarts: s.pageStarts, key };
  return key;
}

/** The proposition hovered or focused in the panel: its support spans in the source (none: unsupported) and its passage. */
export interface LlmHover {
  support: Range[];
  passage: Range;
}
