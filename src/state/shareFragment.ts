/**
 * What the page checks at every start, without the share-link codec (shareLink.ts and fflate load only when the
 * address carries a document, or when the person makes a link): whether the fragment names a document, and the
 * fragment's length limit the "Copy link" button states.
 */

/** Most characters of fragment a link may have (a link stays pasteable into chat and mail). */
export const SHARE_FRAGMENT_LIMIT = 32_000;
export const DOC_KEY = 'doc';
export const VERSION_KEY = 'v';

export function fragmentParams(hash: string): URLSearchParams {
  // URLSearchParams turns '+' into ' ': base64url has no '+', and names are percent-encoded.
  return new URLSearchParams(hash.replace(/^#/, ''));
}

/** True when the fragment (with or without '#') carries a document. */
export function hasSharedDocument(hash: string): boolean {
  const params = fragmentParams(hash);
  // A version 2 link cut off before its payload still says it is a link (then it is damaged).
  return params.has(DOC_KEY) || params.has(VERSION_KEY);
}
