import { resolveDocumentConflict } from '../state/controller';
import { useStore } from '../state/store';

/**
 * Shown in a tab that fell behind: another tab saved a newer version of the stored document. This tab's edits are
 * not saved until the person chooses, so neither tab's work is overwritten without a word.
 */
export function DocumentConflictBanner() {
  const conflict = useStore((s) => s.documentConflict);
  if (!conflict) return null;
  return (
    <div className="notice" role="alert" data-testid="document-conflict">
      <span>This document was changed in another tab. Edits made here are not saved until you choose.</span>
      <button type="button" className="link" onClick={() => void resolveDocumentConflict('load')}>
        Load the newer version
      </button>
      <button type="button" className="link" onClick={() => void resolveDocumentConflict('keep')}>
        Keep this tab's version
      </button>
    </div>
  );
}
