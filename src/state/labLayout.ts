/**
 * The split between the editor and the open lab (pure, plus its storage): the lab's share of the editor pane's
 * height, moved by dragging the separator or with the keyboard, remembered in the browser across visits.
 */

export const LAB_SHARE_STORAGE_KEY = 'chunkscope.labShare';
/** The lab's default share: half the pane (at 1440×900 about 420 px; the strip it replaced was about 200 px). */
export const DEFAULT_LAB_SHARE = 0.5;
/** Bounds: the lab keeps room for its bar and a row of controls; the editor keeps a few lines of text. */
export const MIN_LAB_SHARE = 0.2;
export const MAX_LAB_SHARE = 0.85;
/** One arrow-key press (PageUp/PageDown: three). */
export const LAB_SHARE_STEP = 0.05;

export function clampLabShare(share: number): number {
  if (!Number.isFinite(share)) return DEFAULT_LAB_SHARE;
  return Math.min(MAX_LAB_SHARE, Math.max(MIN_LAB_SHARE, Math.round(share * 1000) / 1000));
}

/** The share a key gives (null: not a key the separator answers). Up grows the lab (the separator moves up). */
export function labShareAfterKey(share: number, key: string): number | null {
  switch (key) {
    case 'ArrowUp':
      return clampLabShare(share + LAB_SHARE_STEP);
    case 'ArrowDown':
      return clampLabShare(share - LAB_SHARE_STEP);
    case 'PageUp':
      return clampLabShare(share + 3 * LAB_SHARE_STEP);
    case 'PageDown':
      return clampLabShare(share - 3 * LAB_SHARE_STEP);
    case 'Home':
      return MAX_LAB_SHARE;
    case 'End':
      return MIN_LAB_SHARE;
    default:
      return null;
  }
}

/** The share a drag gives: the pointer's height above the pane's bottom, over the pane's height. */
export function labShareAtPointer(pointerY: number, paneTop: number, paneHeight: number): number {
  if (!(paneHeight > 0)) return DEFAULT_LAB_SHARE;
  return clampLabShare((paneTop + paneHeight - pointerY) / paneHeight);
}

/** The stored share (absent, unreadable or out of bounds: the default, clamped). */
export function readLabShare(storage: Pick<Storage, 'getItem'> | null): number {
  try {
    const raw = storage?.getItem(LAB_SHARE_STORAGE_KEY);
    return raw == null || raw.trim() === '' ? DEFAULT_LAB_SHARE : clampLabShare(Number(raw));
  } catch {
    return DEFAULT_LAB_SHARE;
  }
}

export function writeLabShare(storage: Pick<Storage, 'setItem'> | null, share: number): void {
  try {
    storage?.setItem(LAB_SHARE_STORAGE_KEY, String(clampLabShare(share)));
  } catch {
    // A full or refused storage: the split still works for this visit.
  }
}
