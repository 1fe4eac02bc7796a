import { DEFAULT_CONFIG, type Config } from './configSlice';
import { checkConfig } from './configValidation';
import { serializeSettings, SETTINGS_KEY } from './persistence';
import { migrateStoredSettings } from './urlMigration';

export { droppedNotice } from './configValidation';

/**
 * Stored settings read back and checked (persistenceSync.ts loads this only when settings are stored: the option
 * table's checks and the migrations are not on a first visit's way to its first paint).
 */

export type ParsedSettings = { ok: true; config: Config; dropped: string[] } | { ok: false; reason: string };

/**
 * Parse stored settings. What is not a JSON object is rejected as a whole; inside it each field is checked through
 * the option table (configValidation.ts: own properties only, the row's kind, then the rows' validation) and a
 * field that fails is dropped back to its default and named in `dropped`.
 */
export function parseSettings(raw: string | null): ParsedSettings | null {
  if (raw === null) return null;
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch {
    return { ok: false, reason: 'not valid JSON' };
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return { ok: false, reason: 'not an object' };
  const migrated = migrateStoredSettings(value as Record<string, unknown>);
  if (!migrated.ok) return migrated;
  const checked = checkConfig(migrated.value, DEFAULT_CONFIG);
  return { ok: true, config: checked.config, dropped: checked.dropped };
}


export function loadSettings(storage: Storage): ParsedSettings | null {
  let raw: string | null = null;
  try {
    raw = storage.getItem(SETTINGS_KEY);
  } catch {
    return null;
  }
  const parsed = parseSettings(raw);
  // What was refused never stays stored: the whole when unreadable, else the settings without the dropped fields.
  try {
    if (parsed && !parsed.ok) storage.removeItem(SETTINGS_KEY);
    else if (parsed && parsed.dropped.length > 0) storage.setItem(SETTINGS_KEY, serializeSettings(parsed.config));
  } catch {
    /* storage unavailable: nothing to clean */
  }
  return parsed;
}
