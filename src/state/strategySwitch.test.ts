import fc from 'fast-check';
import { beforeEach, describe, expect, it } from 'vitest';
import { STRATEGY_NAMES } from '../core/describe';
import type { StrategyName, UnitName } from '../core/types';
import { DEFAULT_CONFIG, type Config } from './configSlice';
import { resetStore, useStore } from './store';
import { followDocument, initialMemory, switchStrategy, type StrategyMemory } from './strategySwitch';

const strategies = STRATEGY_NAMES as StrategyName[];
const UNITS: UnitName[] = ['chars', 'words', 'cl100k_base', 'o200k_base'];
/** Separator presets of the recursive splitter and code grammars: the language means different things. */
const LANGUAGES = [null, 'python', 'markdown', 'go'];

function run(config: Config, memory: StrategyMemory, path: StrategyName[]): { config: Config; memory: StrategyMemory } {
  for (const next of path) {
    const step = switchStrategy(config, memory, next, 'user');
    config = { ...config, ...step.patch };
    memory = step.memory;
  }
  return { config, memory };
}

describe('switching strategies', () => {
  it('choosing Token brings cl100k; leaving it gives the earlier unit back', () => {
    const start = { ...DEFAULT_CONFIG, unit: 'words' as UnitName };
    const there = run(start, initialMemory(start.strategy), ['token']);
    expect(there.config.unit).toBe('cl100k_base');
    expect(run(there.config, there.memory, ['recursive']).config.unit).toBe('words');
    // Through another strategy too: the unit is back as soon as Token is left.
    expect(run(there.config, there.memory, ['sentence']).config.unit).toBe('words');
  });

  it('keeps a unit the person chose while on Token', () => {
    const there = run(DEFAULT_CONFIG, initialMemory('recursive'), ['token']);
    const changed = { ...there.config, unit: 'o200k_base' as UnitName };
    expect(run(changed, there.memory, ['recursive']).config.unit).toBe('o200k_base');
  });

  it('property: any walk through strategies that comes back leaves unit, language and separators as they were', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...strategies),
        fc.constantFrom(...UNITS),
        fc.constantFrom(...LANGUAGES),
        fc.option(fc.array(fc.constantFrom('\n\n', '\n', ' ', '. '), { minLength: 1, maxLength: 3 }), { nil: null }),
        fc.array(fc.constantFrom(...strategies), { maxLength: 6 }),
        (strategy, unit, language, separators, walk) => {
          // A starting point as a person could have it: what choosing the strategy gives, then their own values.
          let start: Config = { ...DEFAULT_CONFIG, ...switchStrategy(DEFAULT_CONFIG, initialMemory('recursive'), strategy, 'user').patch };
          start = { ...start, unit: start.unit === 'cl100k_base' && unit === 'chars' ? start.unit : unit, language, separators };
          // Only starting values the strategy keeps when it is chosen again are a fair start (Token brings tokens).
          const settled = { ...start, ...switchStrategy(start, initialMemory(strategy), strategy, 'user').patch };
          const end = run(settled, initialMemory(strategy), [...walk, strategy]).config;
          for (const key of ['strategy', 'unit', 'language', 'separators', 'keepSeparator'] as const) expect(end[key]).toEqual(settled[key]);
        },
      ),
      { numRuns: 300 },
    );
  });
});

describe('the page follows the document', () => {
  beforeEach(() => resetStore());

  it('a markdown document brings markdown; the next plain one goes back to the person’s strategy', () => {
    const s = useStore.getState();
    s.chooseStrategy('sentence');
    expect(s.followDocumentKind('markdown')).toBe('markdown');
    expect(useStore.getState().config.strategy).toBe('markdown');
    expect(useStore.getState().followDocumentKind(null)).toBe('sentence');
    expect(useStore.getState().config.strategy).toBe('sentence');
    // Plain text after the person's own choice: nothing changes.
    expect(useStore.getState().followDocumentKind(null)).toBeNull();
    expect(useStore.getState().config.strategy).toBe('sentence');
  });

  it('a PDF (plain) after an HTML file is not split by the HTML splitter', () => {
    const s = useStore.getState();
    s.followDocumentKind('html');
    expect(useStore.getState().config.strategy).toBe('html');
    useStore.getState().followDocumentKind(null);
    expect(useStore.getState().config.strategy).toBe('recursive');
  });

  it('a strategy the person picks while a document’s is in effect becomes theirs', () => {
    useStore.getState().followDocumentKind('html');
    useStore.getState().chooseStrategy('paragraph');
    expect(useStore.getState().followDocumentKind(null)).toBeNull();
    expect(useStore.getState().config.strategy).toBe('paragraph');
  });

  it('a code document’s strategy and its cleared language are undone by the next plain one', () => {
    const s = useStore.getState();
    s.setConfig({ language: 'python' });
    s.followDocumentKind('code');
    expect(useStore.getState().config.language).toBeNull();
    useStore.getState().followDocumentKind(null);
    expect(useStore.getState().config).toMatchObject({ strategy: 'recursive', language: 'python' });
  });

  it('followDocument changes nothing when the document asks for the strategy in effect', () => {
    expect(followDocument({ ...DEFAULT_CONFIG, strategy: 'markdown' }, initialMemory('markdown'), 'markdown')).toBeNull();
  });
});
