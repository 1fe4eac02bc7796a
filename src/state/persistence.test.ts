import { describe, expect, it } from 'vitest';
import { DEFAULT_CONFIG } from './configSlice';
import { parseStoredDocument, SETTINGS_KEY, serializeSettings } from './persistence';
import { loadSettings, parseSettings } from './storedSettings';

class MemoryStorage implements Storage {
  private map = new Map<string, string>();
  get length() {
    return this.map.size;
  }
  clear() {
    this.map.clear();
  }
  getItem(key: string) {
    return this.map.get(key) ?? null;
  }
  key(i: number) {
    return [...this.map.keys()][i] ?? null;
  }
  removeItem(key: string) {
    this.map.delete(key);
  }
  setItem(key: string, value: string) {
    this.map.set(key, value);
  }
}

describe('stored settings', () => {
  it('keep the structure, header and retrieval controls; refuse an unknown mode', () => {
    const config = {
      ...DEFAULT_CONFIG, strategy: 'markdown' as const, headingDepth: 2, rowsAsText: true, stripHeaders: false, returnEachLine: true,
      headers: '{title}: {path}', path: 'docs/x.md', language: 'rust',
      retrieval: 'hierarchical' as const, parentSize: 1500, window: 2, levels: '1024, 256',
    };
    expect(parseSettings(serializeSettings(config))).toEqual({ ok: true, config, dropped: [] });
    // A bad field is dropped back to its default, the others kept.
    expect(parseSettings(JSON.stringify({ ...config, retrieval: 'sideways' }))).toEqual({ ok: true, config: { ...config, retrieval: DEFAULT_CONFIG.retrieval }, dropped: ['retrieval'] });
    expect(parseSettings(JSON.stringify({ ...config, headerMode: true }))).toMatchObject({ ok: false });
    expect(parseSettings(JSON.stringify({ ...config, parentSize: 'big' }))).toMatchObject({ ok: true, dropped: ['parentSize'] });
    expect(parseSettings(JSON.stringify({ ...config, path: 3 }))).toMatchObject({ ok: true, dropped: ['path'] });
  });

  it('keep regular-expression separators and refuse a flag that is not a boolean', () => {
    const config = { ...DEFAULT_CONFIG, separators: ['[.!?]\\s+'], separatorsAreRegex: true };
    expect(parseSettings(serializeSettings(config))).toEqual({ ok: true, config, dropped: [] });
    expect(parseSettings(JSON.stringify({ separatorsAreRegex: 'yes' }))).toMatchObject({ ok: true, dropped: ['separatorsAreRegex'] });
    // Settings saved before the flag existed load with literal separators.
    expect(parseSettings(JSON.stringify({ size: 100 }))).toEqual({ ok: true, config: { ...DEFAULT_CONFIG, size: 100 }, dropped: [] });
  });

  it('round-trip', () => {
    const config = { ...DEFAULT_CONFIG, size: 300, separators: ['\n', ''], language: 'python', compat: 'langchain' as const };
    expect(parseSettings(serializeSettings(config))).toEqual({ ok: true, config, dropped: [] });
  });

  it('nothing stored is not an error', () => {
    expect(parseSettings(null)).toBeNull();
  });

  it('corrupted settings are rejected as a whole and removed from storage', () => {
    for (const raw of ['{not json', '[1,2]', '"text"', 'null', '{"headerMode":7}']) {
      const storage = new MemoryStorage();
      storage.setItem(SETTINGS_KEY, raw);
      const parsed = loadSettings(storage);
      expect(parsed?.ok, raw).toBe(false);
      expect(storage.getItem(SETTINGS_KEY), raw).toBeNull();
    }
  });

  it('bad fields are dropped, named once, and never left in storage', () => {
    for (const [raw, field] of [
      ['{"size":"big"}', 'size'],
      ['{"separators":[1]}', 'separators'],
      ['{"language":5}', 'language'],
      ['{"language":"toString"}', 'language'],
      ['{"language":"__proto__"}', 'language'],
      ['{"strategy":"../../x"}', 'strategy'],
      ['{"strategy":"constructor"}', 'strategy'],
      ['{"size":-5}', 'size'],
      ['{"size":1.5}', 'size'],
      ['{"embedder":"../../../etc/passwd"}', 'embedder'],
      ['{"contextWindow":0}', 'contextWindow'],
      ['{"hybridWeight":7}', 'hybridWeight'],
    ] as const) {
      const storage = new MemoryStorage();
      storage.setItem(SETTINGS_KEY, raw);
      const parsed = loadSettings(storage);
      expect(parsed, raw).toMatchObject({ ok: true, dropped: [field] });
      const again = parseSettings(storage.getItem(SETTINGS_KEY));
      expect(again, raw).toMatchObject({ ok: true, dropped: [] });
    }
  });

  it('a __proto__ key in stored JSON sets nothing', () => {
    const parsed = parseSettings('{"__proto__":{"size":7},"constructor":{"size":8},"size":120}');
    expect(parsed).toEqual({ ok: true, config: { ...DEFAULT_CONFIG, size: 120 }, dropped: [] });
    expect(({} as Record<string, unknown>).size).toBeUndefined();
  });

  it('missing fields take their defaults', () => {
    expect(parseSettings('{"size":100}')).toEqual({ ok: true, config: { ...DEFAULT_CONFIG, size: 100 }, dropped: [] });
  });
});

describe('stored document', () => {
  it('accepts text with a name or none', () => {
    expect(parseStoredDocument({ text: 'abc', name: null })).toEqual({ text: 'abc', name: null, revision: 0 });
    expect(parseStoredDocument({ text: 'abc', name: null, revision: 7 })).toEqual({ text: 'abc', name: null, revision: 7 });
    // A revision that is not a count reads as 0 (the next save checks against it).
    expect(parseStoredDocument({ text: 'abc', name: null, revision: -1 })).toMatchObject({ revision: 0 });
    expect(parseStoredDocument(undefined)).toBeNull();
  });
  it('flags anything else as corrupt', () => {
    expect(parseStoredDocument({ text: 5, name: null })).toBe('corrupt');
    expect(parseStoredDocument('abc')).toBe('corrupt');
  });
});
