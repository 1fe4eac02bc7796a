import type { StoreApi } from 'zustand';
import type { ShareLinkResult } from './shareLink';
import { hasSharedDocument } from './shareFragment';
import type { AppState } from './store';
import { keepPreviousDocument } from './previousDocument';

/**
 * The page side of share links (shareLink.ts holds the format): at start, a link's #doc=… fragment becomes the
 * document; a link with settings but no document says so; "Copy link" and "Download share file" build what they
 * share from the store and the address bar (whose query urlSync.ts keeps equal to the configuration).
 * The codec (shareLink.ts, with fflate) is not on the first paint's path: it loads when the address carries a
 * document, or when a link or share file is made (loadShareLinkCodec).
 */

/** The share-link codec (shareLink.ts and fflate), fetched on first use. */
export function loadShareLinkCodec(): Promise<typeof import('./shareLink')> {
  return import('./shareLink');
}

export const SETTINGS_ONLY_NOTICE = 'This link carries settings only; your own document is shown.';
export const SETTINGS_ONLY_SAMPLE_NOTICE = 'This link carries settings only; its document is not in it, so the sample document is shown.';
/** sessionStorage key: set once the page has started in this tab (a reload is not a newly opened link). */
const SESSION_KEY = 'chunkscope.started';

export interface ShareTarget {
  location: Pick<Location, 'href' | 'pathname' | 'search' | 'hash'>;
  history: Pick<History, 'replaceState' | 'state'>;
  session: Pick<Storage, 'getItem' | 'setItem'> | null;
}

function defaultTarget(): ShareTarget {
  let session: Storage | null = null;
  try {
    session = window.sessionStorage;
  } catch {
    /* storage refused (privacy mode): every start counts as a newly opened link */
  }
  return { location: window.location, history: window.history, session };
}

/**
 * Apply what the page's own address carries beyond the configuration: the document in its fragment (then the
 * fragment is removed from the address bar, so a reload after an edit keeps the edit; the document it replaces is
 * kept and offered back, previousDocument.ts), or, for a settings-only
 * link opened in a new tab, a notice that the document shown is not the link's. `fallbackText` is the sample the
 * page shows when nothing is stored.
 */
export async function applySharedLink(store: StoreApi<AppState>, fallbackText: string, target: ShareTarget = defaultTarget()): Promise<void> {
  const { location, history, session } = target;
  const reloaded = session?.getItem(SESSION_KEY) === '1';
  try {
    session?.setItem(SESSION_KEY, '1');
  } catch {
    /* quota: ignore */
  }
  const state = store.getState();
  const hash = location.hash; // read before replaceState: `location` is live
  if (hasSharedDocument(hash)) {
    history.replaceState(history.state, '', `${location.pathname}${location.search}`);
    let codec: typeof import('./shareLink') | null = null;
    try {
      codec = await loadShareLinkCodec();
      const doc = codec.decodeShareFragment(hash);
      if (doc) {
        // The person's own document (not the sample) is kept and offered back: a link never replaces it silently.
        if (state.text !== fallbackText && state.text !== doc.text) keepPreviousDocument(store, { text: state.text, name: state.docName, pageStarts: state.pageStarts });
        state.setDocument(doc.text, { name: doc.name, pageStarts: null });
        return;
      }
    } catch (err) {
      const message = !codec ? 'The link’s document could not be read (offline before this page was cached?).' : err instanceof codec.ShareLinkError ? err.message : 'The link’s document could not be read.';
      state.setNotice(`${message} ${state.text === fallbackText ? 'The sample document is shown.' : 'Your own document is shown.'}`);
      return;
    }
  }
  // A query means settings (or not): the URL codec loads only when there is one (never on a plain first visit).
  if (!reloaded && location.search.length > 1 && (await import('./urlSync').then((m) => m.hasConfig(location.search), () => false))) {
    const notice = state.text === fallbackText ? SETTINGS_ONLY_SAMPLE_NOTICE : SETTINGS_ONLY_NOTICE;
    const before = state.notice;
    state.setNotice(before ? `${before} ${notice}` : notice);
  }
}

/** The share link for the page as it is now (configuration in the query, document in the fragment). */
export async function currentShareLink(store: StoreApi<AppState>, href: string = window.location.href): Promise<ShareLinkResult> {
  const { shareLink } = await loadShareLinkCodec();
  const { text, docName } = store.getState();
  return shareLink(href, { text, name: docName });
}

/** A share file for the page as it is now: its name and JSON text. */
export async function currentShareFile(store: StoreApi<AppState>, search: string = window.location.search): Promise<{ name: string; text: string }> {
  const { makeShareFile, shareFileName } = await loadShareLinkCodec();
  const { text, docName } = store.getState();
  return { name: shareFileName(docName), text: makeShareFile(search, { text, name: docName }) };
}
