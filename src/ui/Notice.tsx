import { selectNotice } from '../state/selectors';
import { useStore } from '../state/store';

/**
 * The page's one-line message (a file's notes, a link's settings, a save that failed), floating over the foot of
 * the editor. It takes no room in the layout: a notice that comes or goes (a new document clears it) must not
 * resize the editor, which would relayout Monaco in the same task as loading a large paste.
 */
export function Notice() {
  const notice = useStore(selectNotice);
  const setNotice = useStore((s) => s.setNotice);
  if (!notice) return null;
  return (
    <div className="notice" role="status">
      <span>{notice}</span>
      <button type="button" className="link" onClick={() => setNotice(null)}>
        Dismiss
      </button>
    </div>
  );
}
