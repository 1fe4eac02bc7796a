import { useEffect, type RefObject } from 'react';
import { labMarks, type LabMark } from '../../state/labMarks';
import { useStore } from '../../state/store';
import { offsetRange } from './decorations';
import type { EditorSession } from './editorSession';
import { labFocus, labMarksChanged, markToReveal, sameMarks } from './editorModel';
import { labDecorations } from './labDecorations';
import { monaco } from './monaco';

/**
 * The evaluation lab's marks in Monaco (probe hits, answer spans and retrieved chunks, A/B boundaries): redrawn when
 * the lab's state changes or the chunks are repainted, the first mark of a new query or question scrolled to.
 */
export function useLabMarks(session: RefObject<EditorSession | null>): void {
  useEffect(() => {
    const s = session.current!;
    const { editor, model } = s;
    const labDeco = editor.createDecorationsCollection();
    let shown: LabMark[] = [];
    let measuredProbe: unknown = null;
    let revealedFor = '';

    /** Marks are revealed once per question (a new probe query, a clicked golden question), not on slider moves. */
    const draw = (marks: LabMark[]) => {
      const focus = labFocus(useStore.getState());
      const reveal = markToReveal(marks, focus, revealedFor);
      if (reveal) revealedFor = focus;
      shown = marks;
      labDeco.set(labDecorations(model, marks));
      if (reveal) editor.revealRangeInCenterIfOutsideViewport(offsetRange(model, reveal.start, reveal.end), monaco.editor.ScrollType.Smooth);
    };
    const paint = (force = false) => {
      const state = useStore.getState();
      const marks = state.result && !s.loading && s.inSync(state.result) ? labMarks(state) : [];
      if (force || !sameMarks(marks, shown)) draw(marks);
      // The probe's input-to-paint (a slider move or a keystroke to its ranking on screen), once per ranking; a
      // ranking equal to the one drawn is on screen as soon as it arrives.
      const { probe } = state;
      if (state.labTab === 'probe' && probe && probe !== measuredProbe && probe.jobId === state.result?.jobId && marks.length > 0) {
        measuredProbe = probe;
        performance.measure('chunkscope:probe-paint', { start: probe.requestedAt, end: performance.now(), detail: { jobId: probe.jobId, hits: probe.hits.length } });
      }
    };
    s.lab = {
      paint,
      clear: () => {
        labDeco.clear();
        shown = [];
      },
    };
    return useStore.subscribe((next, prev) => {
      if (labMarksChanged(next, prev)) paint();
    });
  }, [session]);
}
