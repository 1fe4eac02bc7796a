import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { clampLabShare, DEFAULT_LAB_SHARE, LAB_SHARE_STORAGE_KEY, labShareAfterKey, labShareAtPointer, MAX_LAB_SHARE, MIN_LAB_SHARE, readLabShare, writeLabShare } from './labLayout';
import { useStore } from './store';

const memoryStorage = () => {
  const map = new Map<string, string>();
  return { getItem: (k: string) => map.get(k) ?? null, setItem: (k: string, v: string) => void map.set(k, v), map };
};

describe('the editor/lab split', () => {
  it('moves with the keyboard within its bounds (up grows the lab)', () => {
    expect(labShareAfterKey(0.5, 'ArrowUp')).toBeCloseTo(0.55);
    expect(labShareAfterKey(0.5, 'ArrowDown')).toBeCloseTo(0.45);
    expect(labShareAfterKey(0.5, 'PageUp')).toBeCloseTo(0.65);
    expect(labShareAfterKey(0.5, 'Home')).toBe(MAX_LAB_SHARE);
    expect(labShareAfterKey(0.5, 'End')).toBe(MIN_LAB_SHARE);
    expect(labShareAfterKey(MAX_LAB_SHARE, 'ArrowUp')).toBe(MAX_LAB_SHARE);
    expect(labShareAfterKey(0.5, 'a')).toBeNull();
  });

  it('follows the pointer: the share is the height under it', () => {
    expect(labShareAtPointer(500, 100, 800)).toBeCloseTo(0.5);
    expect(labShareAtPointer(0, 100, 800)).toBe(MAX_LAB_SHARE);
    expect(labShareAtPointer(899, 100, 800)).toBe(MIN_LAB_SHARE);
    expect(labShareAtPointer(500, 100, 0)).toBe(DEFAULT_LAB_SHARE);
  });

  it('is always within bounds', () => {
    fc.assert(fc.property(fc.double(), (x) => {
      const c = clampLabShare(x);
      expect(c).toBeGreaterThanOrEqual(MIN_LAB_SHARE);
      expect(c).toBeLessThanOrEqual(MAX_LAB_SHARE);
    }));
  });

  it('is remembered in storage; junk reads as the default', () => {
    const storage = memoryStorage();
    expect(readLabShare(storage)).toBe(DEFAULT_LAB_SHARE);
    writeLabShare(storage, 0.7);
    expect(storage.map.get(LAB_SHARE_STORAGE_KEY)).toBe('0.7');
    expect(readLabShare(storage)).toBe(0.7);
    storage.setItem(LAB_SHARE_STORAGE_KEY, 'tall');
    expect(readLabShare(storage)).toBe(DEFAULT_LAB_SHARE);
    storage.setItem(LAB_SHARE_STORAGE_KEY, '5');
    expect(readLabShare(storage)).toBe(MAX_LAB_SHARE);
    expect(readLabShare({ getItem: () => { throw new Error('denied'); } })).toBe(DEFAULT_LAB_SHARE);
    expect(() => writeLabShare({ setItem: () => { throw new Error('full'); } }, 0.4)).not.toThrow();
    expect(readLabShare(null)).toBe(DEFAULT_LAB_SHARE);
  });

  it('the store clamps what it is given', () => {
    useStore.getState().setLabShare(2);
    expect(useStore.getState().labShare).toBe(MAX_LAB_SHARE);
    useStore.getState().setLabShare(0.3);
    expect(useStore.getState().labShare).toBe(0.3);
    useStore.getState().resetLab();
  });
});
