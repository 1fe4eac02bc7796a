import type { EvalOptionName, OptionName, RetrieverName } from '../core/describe';
import type { DocumentOptionName } from '../core/optionRows';
import type { EngineOptionName, ResolvedOptions } from '../core/types';

// Types only (and the page's unset list): the config slice (./configSlice.ts) and the strategy switch
// (./strategySwitch.ts, ./strategyInfo.ts) both need them, and neither may import the other for them (`npm run lint`
// refuses import circles).

/**
 * Options the page keeps at `null` ("unset") by default although the table has a base default: a strategy's
 * description overrides these (recursive keeps separators at the start, character drops them; separators come
 * from the strategy or the language preset; the locale is the engine's), so the page sends nothing until the
 * user sets one.
 */
export const PAGE_UNSET_NAMES = ['separators', 'keepSeparator', 'locale'] as const;

/** Where the page holds a chunking option in another form than the engine's value. */
interface PageForms {
  /** Contextual header: null (off), true (the default template: title and heading path) or the user's template
   * as typed (\n, \t written as escapes in the one-line box). */
  headers: null | true | string;
  /** Hierarchical level sizes as typed ("2048, 512, 128"); parsed for the engine, which validates them. */
  levels: string;
}

/** One field per chunking option but document data, mapped from the option rows (src/core/optionRows.ts): the
 * resolved value's type, null for "not set" where the row's default is null or the page leaves it unset. */
type ChunkingConfig = {
  [N in Exclude<EngineOptionName, DocumentOptionName>]: N extends keyof PageForms
    ? PageForms[N]
    : N extends (typeof PAGE_UNSET_NAMES)[number]
      ? NonNullable<ResolvedOptions[N]> | null
      : Exclude<ResolvedOptions[N], undefined>;
};

/**
 * The page's configuration: one field per option of the core option table (src/core/optionTable.ts), under the
 * table's own name (the library key, the stored-settings key; its kebab-case flag is the URL key). Document data
 * (documentId, pageStarts) is not configuration and lives with the document. The fields round-trip through the
 * URL (urlCodec.ts) and localStorage (persistence.ts); what the worker receives is toChunkOptions (chunkOptions.ts).
 *
 * `null` in a field means "not set: the strategy's (or the engine's) default" — see PAGE_UNSET_NAMES above. The
 * chunking options' fields are mapped from their rows; the page and evaluation settings are listed here.
 */
export interface Config extends ChunkingConfig {
  // Page settings: the context budget.
  contextWindow: number;
  /** k: the query probe's, the evaluation's and the context budget's chunks per query. */
  chunksInContext: number;
  /** Projector mode: larger type and fewer simultaneous marks (a page setting; `projector=1` in a link). */
  projector: boolean;
  // Evaluation lab (the option table's `eval` rows): how a question retrieves chunks. Never chunk options.
  retriever: RetrieverName;
  /** Hybrid: the dense ranking's weight in the fusion (BM25's is 1 - w). */
  hybridWeight: number;
  stopWords: 'none' | 'english';
  stemming: boolean;
}

/** The options the page holds: every option of the table but document data. */
export type ConfigName = Exclude<OptionName, DocumentOptionName> | EvalOptionName;

// The compiler holds Config to the table: a field under another name, or an option without a field, fails here.
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const configKeysAreTableNames: Same<keyof Config, ConfigName> = true;
void configKeysAreTableNames;
