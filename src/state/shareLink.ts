import { deflateSync, inflateSync, strFromU8, strToU8 } from 'fflate';
import { crc32Hex } from './crc32';
import { DOC_KEY, fragmentParams, SHARE_FRAGMENT_LIMIT, VERSION_KEY } from './shareFragment';

/**
 * Share links that carry the document (issue 12, item 2). The configuration stays in the query string (urlCodec.ts,
 * encodeConfig/decodeConfig); the document goes into the URL fragment, which browsers never send to a server:
 *
 *   /?strategy=…&size=…#v=2&len=<UTF-8 bytes>&crc=<CRC-32, 8 hex>&doc=<base64url of raw DEFLATE of the UTF-8 text>&name=<file name>
 *
 * Links verify themselves (issue 29): raw DEFLATE has no checksum, so a damaged payload may still inflate (1.9 M
 * × 'Q' inflates to 1.4 MB of junk). Version 2 carries the text's length and CRC-32 (crc32.ts) ahead of the
 * payload, so a cut-off link loses its payload, not its checks; a length or checksum that does not match, an
 * empty payload or an unknown version says "This link is damaged" and opens nothing. Version 1 links (no `v`,
 * `#doc=…&name=…`, made before) still open; they cannot be verified, so one is refused only where no page could
 * have made it (empty, longer than SHARE_FRAGMENT_LIMIT, not base64url DEFLATE).
 *
 * Compression: fflate (raw DEFLATE, level 9). It is small (deflate + inflate ≈ 9 KB minified), has no
 * dependencies, is widely used and maintained, and DEFLATE shrinks prose about 2.5–3× where lz-string's
 * URI-safe output is ~10–20 % longer for the same text. base64url is written by hand (no padding; - and _ are
 * safe in a fragment unescaped).
 *
 * Limit: SHARE_FRAGMENT_LIMIT characters of fragment (32,000: a link stays pasteable into chat and mail; the
 * preview server's 431 concerns the query, which the fragment is not part of). Past it the page offers a share
 * file (SHARE_FILE_KIND, JSON with the configuration's query and the document) that Open file… reads back.
 * A link's decompressed text is capped at SHARE_TEXT_CAP UTF-8 bytes (a 32 KB fragment of crafted DEFLATE could
 * otherwise expand to ~33 MB).
 */

export { hasSharedDocument, SHARE_FRAGMENT_LIMIT } from './shareFragment';
/** Most UTF-8 bytes a link's document may expand to. */
export const SHARE_TEXT_CAP = 8 * 1024 * 1024;
/** Most characters a share file's document may have (the same cap as a link's, counted in UTF-16 units). */
const SHARE_FILE_TEXT_CAP = 64 * 1024 * 1024;
const NAME_KEY = 'name';
const LENGTH_KEY = 'len';
const CHECKSUM_KEY = 'crc';
/** The fragment format this page writes; it reads this one and the version before it (no `v` key). */
export const SHARE_LINK_VERSION = 2;
const SHARE_FILE_KIND = 'chunkscope-share';
const SHARE_FILE_VERSION = 1;

export interface SharedDocument {
  text: string;
  name: string | null;
}

export type ShareLinkResult =
  | { ok: true; url: string; fragmentLength: number }
  | { ok: false; fragmentLength: number; message: string };

/** The fragment (without '#') that carries `doc`. */
export function encodeShareFragment(doc: SharedDocument): string {
  const bytes = strToU8(doc.text);
  const packed = toBase64Url(deflateSync(bytes, { level: 9 }));
  const name = doc.name ? `&${NAME_KEY}=${encodeURIComponent(doc.name)}` : '';
  return `${VERSION_KEY}=${SHARE_LINK_VERSION}&${LENGTH_KEY}=${bytes.length}&${CHECKSUM_KEY}=${crc32Hex(bytes)}&${DOC_KEY}=${packed}${name}`;
}

/** The fragment a page before version 2 wrote (no length, no checksum): kept to test that such links still open. */
export function encodeLegacyShareFragment(doc: SharedDocument): string {
  const packed = toBase64Url(deflateSync(strToU8(doc.text), { level: 9 }));
  const name = doc.name ? `&${NAME_KEY}=${encodeURIComponent(doc.name)}` : '';
  return `${DOC_KEY}=${packed}${name}`;
}

/**
 * The document a fragment carries; null when it carries none. Throws ShareLinkError (one-line message) when the
 * fragment names a document that cannot be read (damaged, cut off, or larger than the cap).
 */
export function decodeShareFragment(hash: string): SharedDocument | null {
  const params = fragmentParams(hash);
  const packed = params.get(DOC_KEY);
  const version = params.get(VERSION_KEY);
  if (packed === null && version === null) return null;
  if (!packed) throw damaged('it carries no document');
  const text = version === null ? readLegacyPayload(packed) : readVerifiedPayload(version, params, packed);
  const name = params.get(NAME_KEY);
  return { text, name: name ? name.slice(0, 200) : null };
}

/** A version 2 payload: its declared length and CRC-32 must match what it inflates to. */
function readVerifiedPayload(version: string, params: URLSearchParams, packed: string): string {
  if (version !== String(SHARE_LINK_VERSION)) throw damaged(`its format version is ${JSON.stringify(version.slice(0, 12))}; this page reads ${SHARE_LINK_VERSION}`);
  const declared = params.get(LENGTH_KEY) ?? '';
  const checksum = params.get(CHECKSUM_KEY) ?? '';
  if (!/^\d{1,10}$/.test(declared) || !/^[0-9a-f]{8}$/.test(checksum)) throw damaged('its length or checksum is missing');
  const length = Number(declared);
  if (length > SHARE_TEXT_CAP) throw new ShareLinkError(`The link’s document is larger than ${formatBytes(SHARE_TEXT_CAP)}; it was not opened.`);
  // One byte more than declared: a payload that inflates past its length is caught without inflating it all.
  const bytes = inflatePayload(packed, length + 1);
  if (bytes.length !== length || crc32Hex(bytes) !== checksum) throw damaged('its length or checksum does not match its document');
  return strFromU8(bytes);
}

/** A payload written before links carried a checksum: refused only where no page could have written it. */
function readLegacyPayload(packed: string): string {
  if (packed.length > SHARE_FRAGMENT_LIMIT) throw damaged(`it is longer than any link this page makes (${SHARE_FRAGMENT_LIMIT.toLocaleString('en-US')} characters)`);
  const bytes = inflatePayload(packed, SHARE_TEXT_CAP + 1);
  if (bytes.length > SHARE_TEXT_CAP) throw new ShareLinkError(`The link’s document is larger than ${formatBytes(SHARE_TEXT_CAP)}; it was not opened.`);
  return strFromU8(bytes);
}

/** base64url, then raw DEFLATE into at most `room` bytes (fflate stops at the end of `out`). */
function inflatePayload(packed: string, room: number): Uint8Array {
  let bytes: Uint8Array;
  try {
    bytes = fromBase64Url(packed);
  } catch {
    throw damaged('it is not base64url; was it cut off?');
  }
  try {
    return inflateSync(bytes, { out: new Uint8Array(room) });
  } catch {
    throw damaged('it does not decompress; was it cut off?');
  }
}

/** The one line a damaged link gets. */
export const DAMAGED_LINK = 'This link is damaged';

function damaged(reason: string): ShareLinkError {
  return new ShareLinkError(`${DAMAGED_LINK}: ${reason}. Nothing was opened.`);
}

/** The share link for `doc` at `base` (a URL whose query holds the configuration), or why it cannot be made. */
export function shareLink(base: string, doc: SharedDocument, limit = SHARE_FRAGMENT_LIMIT): ShareLinkResult {
  const fragment = encodeShareFragment(doc);
  const url = new URL(base);
  url.hash = '';
  if (fragment.length <= limit) return { ok: true, url: `${url.href}#${fragment}`, fragmentLength: fragment.length };
  return { ok: false, fragmentLength: fragment.length, message: tooLargeMessage(fragment.length, limit) };
}

function tooLargeMessage(fragmentLength: number, limit = SHARE_FRAGMENT_LIMIT): string {
  return (
    `This document is too large for a link: compressed, it needs ${fragmentLength.toLocaleString('en-US')} characters, and ` +
    `links carry up to ${limit.toLocaleString('en-US')}. Download a share file instead; opening it with Open file… shows the same view.`
  );
}

export class ShareLinkError extends Error {
  override name = 'ShareLinkError';
}

// --- share file ----------------------------------------------------------------------------------------------------

export interface ShareFile {
  kind: typeof SHARE_FILE_KIND;
  version: typeof SHARE_FILE_VERSION;
  /** The configuration as the link's query string (encodeConfig, plus what else the link carries, e.g. a pin). */
  query: string;
  document: { name: string | null; text: string };
}

export function makeShareFile(query: string, doc: SharedDocument): string {
  const file: ShareFile = { kind: SHARE_FILE_KIND, version: SHARE_FILE_VERSION, query: query.replace(/^\?/, ''), document: { name: doc.name, text: doc.text } };
  return JSON.stringify(file);
}

export function shareFileName(docName: string | null): string {
  const stem = (docName ?? 'document').replace(/\.[^.]*$/, '').replace(/[^\p{L}\p{N}._-]+/gu, '-').slice(0, 80) || 'document';
  return `${stem}.chunkscope.json`;
}

/**
 * The share file `text` holds; null when `text` is not a share file (any other JSON). Throws ShareLinkError when it
 * says it is one but is malformed or too large.
 */
export function parseShareFile(text: string): ShareFile | null {
  if (!text.includes(SHARE_FILE_KIND)) return null;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return null;
  }
  if (!isRecord(value) || value.kind !== SHARE_FILE_KIND) return null;
  if (value.version !== SHARE_FILE_VERSION) throw new ShareLinkError(`This share file has version ${String(value.version)}; this page reads version ${SHARE_FILE_VERSION}.`);
  const doc = value.document;
  if (typeof value.query !== 'string' || !isRecord(doc) || typeof doc.text !== 'string' || (doc.name !== null && doc.name !== undefined && typeof doc.name !== 'string')) {
    throw new ShareLinkError('This share file is damaged: it lacks the configuration or the document.');
  }
  if (doc.text.length > SHARE_FILE_TEXT_CAP) throw new ShareLinkError(`This share file’s document is larger than ${formatBytes(SHARE_FILE_TEXT_CAP)}; it was not opened.`);
  return { kind: SHARE_FILE_KIND, version: SHARE_FILE_VERSION, query: value.query, document: { name: typeof doc.name === 'string' ? doc.name.slice(0, 200) : null, text: doc.text } };
}

// --- helpers ---------------------------------------------------------------------------------------------------------

export function formatBytes(n: number): string {
  if (n < 1024) return `${n} bytes`;
  if (n < 1024 * 1024) return `${Math.round(n / 1024)} KB`;
  return `${Math.round(n / (1024 * 1024))} MB`;
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
const LOOKUP = new Int16Array(128).fill(-1);
for (let i = 0; i < ALPHABET.length; i++) LOOKUP[ALPHABET.charCodeAt(i)] = i;

export function toBase64Url(bytes: Uint8Array): string {
  let out = '';
  let i = 0;
  for (; i + 2 < bytes.length; i += 3) {
    const n = (bytes[i]! << 16) | (bytes[i + 1]! << 8) | bytes[i + 2]!;
    out += ALPHABET[n >> 18]! + ALPHABET[(n >> 12) & 63]! + ALPHABET[(n >> 6) & 63]! + ALPHABET[n & 63]!;
  }
  const rest = bytes.length - i;
  if (rest === 1) {
    const n = bytes[i]! << 16;
    out += ALPHABET[n >> 18]! + ALPHABET[(n >> 12) & 63]!;
  } else if (rest === 2) {
    const n = (bytes[i]! << 16) | (bytes[i + 1]! << 8);
    out += ALPHABET[n >> 18]! + ALPHABET[(n >> 12) & 63]! + ALPHABET[(n >> 6) & 63]!;
  }
  return out;
}

export function fromBase64Url(text: string): Uint8Array {
  if (text.length % 4 === 1) throw new Error('bad length');
  const out = new Uint8Array(Math.floor((text.length * 3) / 4));
  let o = 0;
  let acc = 0;
  let bits = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    const v = c < 128 ? LOOKUP[c]! : -1;
    if (v < 0) throw new Error('bad character');
    acc = (acc << 6) | v;
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      out[o++] = (acc >> bits) & 255;
    }
  }
  return out.subarray(0, o);
}
