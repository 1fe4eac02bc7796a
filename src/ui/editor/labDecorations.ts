import type { editor } from 'monaco-editor';
import type { LabMark } from '../../state/labMarks';
import { offsetRange, type OffsetToPosition } from './decorations';

/**
 * Lab marks as Monaco decorations (pure). Badges are injected text (`before.content`): Monaco writes it as text,
 * never as HTML, so a document's own characters can never become markup. Boundaries are zero-width ranges with a
 * coloured bar before them.
 */

const CLASS: Record<LabMark['kind'], string> = {
  hit: 'lab-hit',
  matched: 'lab-matched',
  answer: 'lab-answer',
  'answer-missing': 'lab-answer-missing',
  retrieved: 'lab-retrieved',
  'only-a': 'lab-bnd-a',
  'only-b': 'lab-bnd-b',
  both: 'lab-bnd-both',
};

const BOUNDARY_GLYPH: Partial<Record<LabMark['kind'], string>> = { 'only-a': 'A', 'only-b': 'B', both: '|' };

export function labDecorations(model: OffsetToPosition, marks: readonly LabMark[]): editor.IModelDeltaDecoration[] {
  return marks.map((m) => {
    const glyph = BOUNDARY_GLYPH[m.kind];
    const options: editor.IModelDecorationOptions = {
      hoverMessage: m.title ? { value: m.title, isTrusted: false, supportHtml: false } : undefined,
      stickiness: 1,
    };
    if (glyph) {
      options.before = { content: glyph, inlineClassName: `lab-bnd ${CLASS[m.kind]}` };
      options.showIfCollapsed = true;
    } else {
      options.inlineClassName = CLASS[m.kind];
      if (m.badge) options.before = { content: m.badge, inlineClassName: `lab-badge lab-badge-${m.kind}` };
    }
    return { range: offsetRange(model, m.start, m.end), options };
  });
}
