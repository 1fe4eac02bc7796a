/**
 * What a person does in the first-paint view (the read-only view the page paints before Monaco has loaded), kept
 * for Monaco to take over when it swaps in: where the caret or selection was, the keys typed meanwhile (no keystroke
 * is lost), whether the view had the focus, and how far it was scrolled. Pure: the view records, MonacoEditor replays.
 */

/** An edit typed before Monaco arrived, replayed with Monaco's own commands (so undo and auto-closing work as typed). */
export type EarlyKey = { kind: 'type'; text: string } | { kind: 'deleteLeft' } | { kind: 'deleteRight' };

export interface EarlyInput {
  /** The selection in document offsets (anchor: where it began), or null where the person made none. */
  selection: { anchor: number; focus: number } | null;
  keys: EarlyKey[];
  /** The first line on screen (0-based) and the pixels scrolled past its top. */
  scroll: { line: number; within: number } | null;
}

/** The key's edit, or null for a key that edits nothing (arrows, shortcuts, Tab: it moves the focus) or mid-IME. */
export function earlyKey(event: { key: string; ctrlKey: boolean; metaKey: boolean; altKey: boolean; isComposing?: boolean }): EarlyKey | null {
  if (event.isComposing || event.ctrlKey || event.metaKey) return null;
  if (event.key === 'Enter') return { kind: 'type', text: '\n' };
  if (event.key === 'Backspace') return { kind: 'deleteLeft' };
  if (event.key === 'Delete') return { kind: 'deleteRight' };
  // A printable key's `key` is the character it types (one code point, maybe a surrogate pair); names are longer.
  return [...event.key].length === 1 ? { kind: 'type', text: event.key } : null;
}

/** One shared record per page: the view writes it, MonacoEditor reads it once when it takes over. */
export const earlyInput: EarlyInput = { selection: null, keys: [], scroll: null };

/** Empties the record (Monaco has taken it over). */
export function takeEarlyInput(): EarlyInput {
  const taken = { selection: earlyInput.selection, keys: earlyInput.keys.slice(), scroll: earlyInput.scroll };
  earlyInput.selection = null;
  earlyInput.keys.length = 0;
  earlyInput.scroll = null;
  return taken;
}
