import { useEffect, type RefObject } from 'react';
import { selectLlmInEditor } from '../../state/llmEditor';
import { useStore } from '../../state/store';
import { offsetRange } from './decorations';
import type { EditorSession } from './editorSession';
import { llmHoverDecorations } from './llmDecorations';
import { monaco } from './monaco';
import './llmMarks.css';

/**
 * The LLM panel's run in Monaco: the chunks are repainted when the run shown in the editor changes (it is part of
 * their batch, useChunkDecorations), and the proposition hovered or focused in the panel has its support marked
 * (or, unsupported, its passage outlined) and scrolled into view.
 */
export function useLlmMarks(session: RefObject<EditorSession | null>): void {
  useEffect(() => {
    const s = session.current!;
    const { editor, model } = s;
    const hoverDeco = editor.createDecorationsCollection();
    const showHover = () => {
      const state = useStore.getState();
      const shown = selectLlmInEditor(state) && state.result && !s.loading && s.inSync(state.result) ? state.llmHover : null;
      const { decorations, reveal } = llmHoverDecorations(model, shown, model.getValueLength());
      hoverDeco.set(decorations);
      if (reveal) editor.revealRangeInCenterIfOutsideViewport(offsetRange(model, reveal.start, reveal.end), monaco.editor.ScrollType.Smooth);
    };
    const unsubscribe = useStore.subscribe((next, prev) => {
      if (selectLlmInEditor(next) !== selectLlmInEditor(prev)) s.chunks.paint();
      if (next.llmHover !== prev.llmHover) showHover();
    });
    return () => {
      unsubscribe();
      hoverDeco.clear();
    };
  }, [session]);
}
