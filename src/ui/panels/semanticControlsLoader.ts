import { useEffect, useReducer } from 'react';
import { OPTION_TABLE } from '../../core/optionTable';
import type { StrategyDescription } from '../../core/registry';
import { loadPart } from '../../state/lazyPart';
import { optionApplies } from '../../state/strategyInfo';
import { useAfterFirstPaint } from '../afterFirstPaint';

/**
 * The semantic strategy's controls (SemanticControls.tsx: the embedder, breakpoints, buffer, sentence finder) are
 * not on the first paint's path for the other strategies. They load before the first render when the page opens on
 * a strategy that shows them (startApp awaits preloadSemanticControls), in idle time after the first paint
 * otherwise, and at once when a strategy that shows them is chosen. Kept in a module variable, not React.lazy: once
 * loaded they render in the same pass as the panel, so nothing jumps.
 */
type SemanticControlsModule = typeof import('./SemanticControls');
let loaded: SemanticControlsModule | null = null;
let loading: Promise<SemanticControlsModule | null> | null = null;
const waiting = new Set<() => void>();

export function loadSemanticControls(): Promise<SemanticControlsModule | null> {
  loading ??= loadPart('semantic controls', () => import('./SemanticControls')).then((module) => {
    loaded = module;
    if (!module) loading = null; // a later need tries again (online again)
    for (const done of waiting) done();
    return module;
  });
  return loading;
}

/** Whether a strategy shows any semantic option (the option table's `semantic` group). */
export function showsSemanticControls(strategy: StrategyDescription): boolean {
  return OPTION_TABLE.some((spec) => spec.group === 'semantic' && optionApplies(spec, strategy));
}

/** Loads them before the first render when the strategy the page opens on shows them. */
export async function preloadSemanticControls(strategy: StrategyDescription): Promise<void> {
  if (showsSemanticControls(strategy)) await loadSemanticControls();
}

/** The SemanticControls component once loaded (null meanwhile); starts the load when `needed` or after the first paint. */
export function useSemanticControls(needed: boolean): SemanticControlsModule['SemanticControls'] | null {
  const after = useAfterFirstPaint();
  const [, rerender] = useReducer((n: number) => n + 1, 0);
  useEffect(() => {
    if (loaded || (!needed && !after)) return;
    waiting.add(rerender);
    void loadSemanticControls();
    return () => void waiting.delete(rerender);
  }, [needed, after]);
  return loaded?.SemanticControls ?? null;
}
