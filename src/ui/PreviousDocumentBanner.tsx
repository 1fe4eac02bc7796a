import { answerPreviousDocument } from '../state/controller';
import { useStore } from '../state/store';

/**
 * Shown after a share link replaced the person's own document: that document is kept, and comes back with one
 * click until the person dismisses the offer (it survives reloads; issue 29).
 */
export function PreviousDocumentBanner() {
  const kept = useStore((s) => s.previousKept);
  if (!kept) return null;
  return (
    <div className="notice notice-previous" role="status" data-testid="previous-document">
      <span>A share link replaced your document; yours is kept.</span>
      <button type="button" className="link" onClick={() => void answerPreviousDocument('restore')}>
        Restore my previous document
      </button>
      <button type="button" className="link" onClick={() => void answerPreviousDocument('dismiss')}>
        Dismiss
      </button>
    </div>
  );
}
