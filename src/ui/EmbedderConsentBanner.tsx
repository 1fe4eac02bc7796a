import { answerLinkedEmbedder, embedderConsentText } from '../state/controller';
import { useStore } from '../state/store';

/** A link named a hub model: ask before downloading it (the current model stays until the person agrees). */
export function EmbedderConsentBanner() {
  const id = useStore((s) => s.embedderToConfirm);
  if (!id) return null;
  return (
    <div className="notice" role="alertdialog" aria-label="Download the linked embedding model?" data-testid="embedder-consent">
      {/* React writes this as text: the id came from a link. */}
      <span>{embedderConsentText(id)}</span>
      <button type="button" className="link" onClick={() => answerLinkedEmbedder(true)}>
        Download and use it
      </button>
      <button type="button" className="link" onClick={() => answerLinkedEmbedder(false)}>
        Keep the current model
      </button>
    </div>
  );
}
