import type { EvalOptionName, EvalSettings, OptionName } from '../core/describe';
import type { DocumentOptionName, PAGE_OPTION_ROWS } from '../core/optionRows';
import type { EngineOptionName, ResolvedOptions, RowValues } from '../core/types';

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
 * `null` in a field means "not set: the strategy's (or the engine's) default" — see PAGE_UNSET_NAMES above. Every
 * field is mapped from its row: the chunking options' (above), the page settings' (the context budget, k, projector
 * mode: PAGE_OPTION_ROWS) and the evaluation lab's (how a question retrieves chunks, never chunk options: the shared
 * rows and each registered retriever's own, as EvalSettings types them).
 */
export interface Config extends ChunkingConfig, PageConfig, EvalConfig {}

type PageConfig = RowValues<typeof PAGE_OPTION_ROWS>;
type EvalConfig = Pick<EvalSettings, EvalOptionName>;

/** The options the page holds: every option of the table but document data. */
export type ConfigName = Exclude<OptionName, DocumentOptionName> | EvalOptionName;

// The compiler holds Config to the table: a field under another name, or an option without a field, fails here.
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const configKeysAreTableNames: Same<keyof Config, ConfigName> = true;
void configKeysAreTableNames;
