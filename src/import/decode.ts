/**
 * The one rule for turning a text file's bytes into the text Chunkscope chunks, shared by the CLI and the page
 * (docs/input.md). Offsets index the text exactly as Node's `readFileSync(f, 'utf8')` and Python's
 * `open(f, encoding='utf-8')` decode a UTF-8 file: nothing is removed, so a UTF-8 byte-order mark stays as U+FEFF
 * at offset 0 (the strategies keep it out of every chunk, like leading whitespace). UTF-16 files with a BOM are
 * decoded too, their BOM likewise kept as U+FEFF at offset 0 (as `readFileSync(f, 'utf16le')` and Python's
 * 'utf-16-le' / 'utf-16-be' codecs give it). A NUL character or bytes that are not valid in the encoding mean the
 * file is not text, and it is refused: chunking it would give offsets into garbage.
 *
 * Pure: TextDecoder only (every host of the page and the CLI has it), no DOM and no Node globals.
 */

export type DocumentEncoding = 'utf-8' | 'utf-8-bom' | 'utf-16le' | 'utf-16be';

export interface DecodedDocument {
  /** The decoded text; a BOM, when there is one, is its first character (U+FEFF). */
  text: string;
  encoding: DocumentEncoding;
  bom: boolean;
  /** What the user should know (a BOM was found, the file was UTF-16); empty for plain UTF-8. */
  notes: string[];
}

export type DecodeFailure = 'binary' | 'invalid-utf8' | 'invalid-utf16' | 'utf16-without-bom';

/** Bytes that are not a text file; `reason` is a lowercase phrase that follows the file's name. */
export class DecodeError extends Error {
  override name = 'DecodeError';
  constructor(
    readonly failure: DecodeFailure,
    readonly reason: string,
  ) {
    super(reason);
  }
}

/** The encoding a file's first bytes announce (a BOM), else UTF-8. Needs at most the first 3 bytes. */
export function detectEncoding(head: Uint8Array): DocumentEncoding {
  if (head[0] === 0xef && head[1] === 0xbb && head[2] === 0xbf) return 'utf-8-bom';
  if (head[0] === 0xff && head[1] === 0xfe) return 'utf-16le';
  if (head[0] === 0xfe && head[1] === 0xff) return 'utf-16be';
  return 'utf-8';
}

const LABEL: Record<DocumentEncoding, string> = { 'utf-8': 'utf-8', 'utf-8-bom': 'utf-8', 'utf-16le': 'utf-16le', 'utf-16be': 'utf-16be' };

const REFUSALS: Record<DecodeFailure, string> = {
  binary: 'looks like a binary file (it has NUL bytes); give a text file',
  'invalid-utf8': 'is not valid UTF-8 text; convert it to UTF-8 first',
  'invalid-utf16': 'is not valid UTF-16 text (it starts with a UTF-16 byte-order mark); convert it to UTF-8 first',
  'utf16-without-bom': 'looks like UTF-16 text without a byte-order mark; save it as UTF-8 (or UTF-16 with a BOM)',
};

/** Every other byte NUL in the first ones: UTF-16 text (mostly ASCII) that has no BOM to say so. */
function looksLikeBomlessUtf16(bytes: Uint8Array): boolean {
  const n = Math.min(bytes.length, 512) & ~1;
  if (n < 4) return false;
  let evenNul = 0;
  let oddNul = 0;
  for (let i = 0; i < n; i += 2) {
    if (bytes[i] === 0) evenNul++;
    if (bytes[i + 1] === 0) oddNul++;
  }
  const pairs = n / 2;
  return (evenNul >= pairs * 0.9 && oddNul === 0) || (oddNul >= pairs * 0.9 && evenNul === 0);
}

function failure(kind: DecodeFailure): DecodeError {
  return new DecodeError(kind, REFUSALS[kind]);
}

/**
 * Checks a text file block by block as it is read, so a reader can stop at the first block of a binary file or of
 * invalid UTF-8 (`/dev/zero`, `/dev/urandom`) instead of reading on. `push` throws DecodeError; `end` checks that
 * the file did not stop inside a character. The same decoder and checks as decodeDocumentBytes.
 */
export function createTextSniffer(): { push(block: Uint8Array): void; end(): void } {
  let decoder: InstanceType<typeof TextDecoder> | null = null;
  let encoding: DocumentEncoding = 'utf-8';
  let head = new Uint8Array(0);
  const check = (run: () => string, bytes?: Uint8Array) => {
    // A NUL byte in UTF-8 says "binary" before its other bytes are judged (a PNG is binary, not bad UTF-8).
    if (bytes && !encoding.startsWith('utf-16') && bytes.includes(0)) throw failure(looksLikeBomlessUtf16(head) ? 'utf16-without-bom' : 'binary');
    let text: string;
    try {
      text = run();
    } catch {
      throw failure(encoding.startsWith('utf-16') ? 'invalid-utf16' : 'invalid-utf8');
    }
    if (text.includes('\0')) throw failure(encoding === 'utf-8' && looksLikeBomlessUtf16(head) ? 'utf16-without-bom' : 'binary');
  };
  return {
    push(block) {
      if (decoder === null) {
        // The BOM needs 3 bytes; keep the first ones until there are enough to decide.
        const joined = new Uint8Array(head.length + block.length);
        joined.set(head);
        joined.set(block, head.length);
        head = joined;
        if (head.length < 512) return;
        encoding = detectEncoding(head);
        decoder = new TextDecoder(LABEL[encoding], { fatal: true, ignoreBOM: true });
        const first = head;
        head = head.subarray(0, 512);
        check(() => decoder!.decode(first, { stream: true }), first);
        return;
      }
      check(() => decoder!.decode(block, { stream: true }), block);
    },
    end() {
      if (decoder === null) {
        encoding = detectEncoding(head);
        decoder = new TextDecoder(LABEL[encoding], { fatal: true, ignoreBOM: true });
        const first = head;
        check(() => decoder!.decode(first, { stream: true }), first);
      }
      check(() => decoder!.decode());
    },
  };
}

/**
 * Decode a text file's bytes by the rule above. Throws DecodeError (binary, invalid UTF-8, invalid UTF-16, UTF-16
 * without a BOM). An empty file is the empty text.
 */
export function decodeDocumentBytes(bytes: Uint8Array): DecodedDocument {
  const encoding = detectEncoding(bytes);
  if (!encoding.startsWith('utf-16') && bytes.includes(0)) throw failure(looksLikeBomlessUtf16(bytes) ? 'utf16-without-bom' : 'binary');
  let text: string;
  try {
    // ignoreBOM true: the decoder keeps a leading BOM as U+FEFF, as Node's and Python's UTF-8 readers do.
    text = new TextDecoder(LABEL[encoding], { fatal: true, ignoreBOM: true }).decode(bytes);
  } catch {
    throw failure(encoding.startsWith('utf-16') ? 'invalid-utf16' : 'invalid-utf8');
  }
  if (text.includes('\0')) throw failure(encoding === 'utf-8' && looksLikeBomlessUtf16(bytes) ? 'utf16-without-bom' : 'binary');
  const bom = encoding !== 'utf-8';
  return { text, encoding, bom, notes: encodingNotes(encoding) };
}

/** The notes for an encoding: what the CLI prints on stderr and the page shows beside the document. */
export function encodingNotes(encoding: DocumentEncoding): string[] {
  switch (encoding) {
    case 'utf-8':
      return [];
    case 'utf-8-bom':
      return ['The file starts with a UTF-8 byte-order mark; it is kept as character 0 (U+FEFF), outside every chunk, so offsets match the file as other tools read it.'];
    case 'utf-16le':
      return ['Read as UTF-16 little-endian (byte-order mark FF FE); offsets count UTF-16 code units of the decoded text, the mark being character 0.'];
    case 'utf-16be':
      return ['Read as UTF-16 big-endian (byte-order mark FE FF); offsets count UTF-16 code units of the decoded text, the mark being character 0.'];
  }
}
