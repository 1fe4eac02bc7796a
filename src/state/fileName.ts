/**
 * File names come from strangers (a dropped file, a share link, a share file): one over 1,000 characters made the
 * engine's `path` option refuse the settings ("Settings invalid … path must be a file path or name"), a setting
 * the person never touched (issue 29). A name is shortened in the middle — its start and its extension are what
 * identify it — for the engine's path and for display.
 */

/** The engine's limit on `path` (src/core/optionTable.ts). */
export const PATH_LIMIT = 1000;
/** Characters of a name shown in the editor's bar. */
export const DISPLAY_NAME_LIMIT = 120;

/** `name` in at most `max` code points: unchanged when it fits, else its start, "…", and its end. */
export function shortenFileName(name: string, max: number): string {
  const points = Array.from(name);
  if (points.length <= max) return name;
  const tail = Math.min(Math.floor((max - 1) / 3), 60);
  return `${points.slice(0, max - 1 - tail).join('')}…${points.slice(points.length - tail).join('')}`;
}
