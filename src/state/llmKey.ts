/**
 * The API key's one storage rule: in memory (the llm slice) unless the person ticks "Remember on this device"; then
 * in localStorage under LLM_KEY_STORAGE, and unticking erases it. Nothing else writes the key anywhere.
 */
export const LLM_KEY_STORAGE = 'chunkscope.llm-api-key';

type KeyStorage = Pick<Storage, 'getItem' | 'setItem' | 'removeItem'>;

function storage(): KeyStorage | null {
  try {
    return globalThis.localStorage ?? null;
  } catch {
    return null; // storage refused (privacy mode): the key stays in memory
  }
}

/** The remembered key, or null. */
export function rememberedKey(store: KeyStorage | null = storage()): string | null {
  try {
    return store?.getItem(LLM_KEY_STORAGE) ?? null;
  } catch {
    return null;
  }
}

/** Remember (true) writes the key; forget (false) erases it. */
export function setKeyRemembered(remember: boolean, key: string, store: KeyStorage | null = storage()): void {
  try {
    if (remember && key !== '') store?.setItem(LLM_KEY_STORAGE, key);
    else store?.removeItem(LLM_KEY_STORAGE);
  } catch {
    /* quota or refused storage: the key stays in memory */
  }
}
