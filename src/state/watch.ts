import type { StoreApi } from 'zustand';

/** Shallow equality of two arrays of the same length (the selected slice parts). */
export function sameItems(a: readonly unknown[], b: readonly unknown[]): boolean {
  return a.length === b.length && a.every((v, i) => Object.is(v, b[i]));
}

/**
 * Subscribe to one part of the store: `onChange(next, previous)` runs only when `select(state)` changes by `equal`
 * (default Object.is), not on every store update. Returns the unsubscribe function.
 */
export function watch<S, T>(
  store: Pick<StoreApi<S>, 'getState' | 'subscribe'>,
  select: (state: S) => T,
  onChange: (next: T, previous: T) => void,
  equal: (a: T, b: T) => boolean = Object.is,
): () => void {
  let current = select(store.getState());
  return store.subscribe((state) => {
    const next = select(state);
    if (equal(current, next)) return;
    const previous = current;
    current = next;
    onChange(next, previous);
  });
}
