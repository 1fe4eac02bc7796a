import { documentCache, instanceKey } from '../../documentCache';
import type { ChunkContext } from '../../types';
import type { TiktokenUnit } from '../../units/tiktoken';
import { isTiktokenUnit, rejectSpecialTokenText } from '../../units/unit';
import { RunControl, type LangchainSpan } from './run';

/**
 * LangChain JS's TokenTextSplitter: encode the whole text, then windows of `size` token ids, each next window
 * starting `overlap` ids before the previous one ended; each chunk is the decoded window.
 *
 * QUIRK (content !== text): a window boundary can fall inside a character (an emoji or a CJK character made of
 * several byte-level tokens); decoding the window then yields U+FFFD for the partial bytes, so LangChain's string
 * is not a piece of the source. Such a span covers every character the window has bytes of: it starts at the
 * start of the character its first byte belongs to and ends at the end of the character its last byte belongs to
 * (so two neighbouring windows share a cut character). Likewise a lone surrogate in the source is encoded as
 * U+FFFD and decodes as U+FFFD.
 * Like LangChain (disallowedSpecial "all"), text containing a special token such as <|endoftext|> is refused.
 */
export function splitTokenLangchain(source: string, ctx: ChunkContext): LangchainSpan[] {
  const unit = ctx.unit;
  if (!isTiktokenUnit(unit)) {
    throw new Error(`LangChain's TokenTextSplitter counts tokens: unit ${unit.name} is not a token encoding`);
  }
  const { size, overlap } = ctx.options;
  if (overlap >= size) throw new Error('Cannot have chunkOverlap >= chunkSize');
  rejectSpecialTokenText(source, unit);
  const run = new RunControl(ctx, source.length);
  const doc = tokenizedDocument(source, unit);
  const { ids, starts, ends } = doc;
  const out: LangchainSpan[] = [];
  let first = 0;
  while (first < ids.length) {
    if (first > 0) first -= overlap;
    const last = Math.min(first + size, ids.length);
    const start = starts[first]!;
    const end = ends[last - 1]!;
    const decoded = unit.decode(ids.slice(first, last));
    out.push(decoded === source.slice(start, end) ? { start, end } : { start, end, content: decoded });
    first = last;
    run.step(ends[last - 1]!);
  }
  run.finish();
  return out;
}

interface TokenizedDocument {
  source: string;
  ids: number[];
  /** UTF-16 start of the character holding each token's first byte. */
  starts: Int32Array;
  /** UTF-16 end of the character holding each token's last byte. */
  ends: Int32Array;
}

/** The document tokenized per unit, kept in the document's cache: moving the size or overlap slider then costs no re-encoding. */
function tokenizedDocument(source: string, unit: TiktokenUnit): TokenizedDocument {
  return documentCache.getOrCompute(source, `langchain.tokenized:${instanceKey('unit', unit)}`, () => tokenize(source, unit), tokenizedBytes);
}

/** Estimated bytes: a number array slot per id (8) and two Int32 offsets. */
function tokenizedBytes(doc: TokenizedDocument): number {
  return doc.ids.length * 8 + doc.starts.byteLength + doc.ends.byteLength;
}

function tokenize(source: string, unit: TiktokenUnit): TokenizedDocument {
  // The unit's tokenize() gives encode(source)'s ids (special tokens as text, rejected above) from its per-piece
  // cache, which a document edited and re-chunked mostly hits.
  const ids: number[] = [];
  for (const token of unit.tokenize(source)) for (const id of token.ids) ids.push(id);
  const starts = new Int32Array(ids.length);
  const ends = new Int32Array(ids.length);

  // Two cursors over the source's characters, each with the UTF-8 byte offset where its character starts.
  let startChar = 0;
  let startCharByte = 0;
  let endChar = 0;
  let endCharByte = 0;
  let tokenByte = 0;
  for (let t = 0; t < ids.length; t++) {
    const byteLength = unit.tokenByteLength(ids[t]!);
    // Start: the character containing the token's first byte.
    let width = utf8Width(source, startChar);
    while (startChar < source.length && startCharByte + width <= tokenByte) {
      startCharByte += width;
      startChar += utf16Width(source, startChar);
      width = utf8Width(source, startChar);
    }
    starts[t] = startChar;
    tokenByte += byteLength;
    // End: the first character boundary at or after the token's last byte.
    while (endChar < source.length && endCharByte < tokenByte) {
      endCharByte += utf8Width(source, endChar);
      endChar += utf16Width(source, endChar);
    }
    ends[t] = endChar;
  }
  return { source, ids, starts, ends };
}

/** UTF-8 bytes of the character at `i` as TextEncoder writes it (a lone surrogate becomes U+FFFD: 3 bytes). */
function utf8Width(s: string, i: number): number {
  const c = s.charCodeAt(i);
  if (c < 0x80) return 1;
  if (c < 0x800) return 2;
  if (c >= 0xd800 && c <= 0xdbff) {
    const d = s.charCodeAt(i + 1);
    if (d >= 0xdc00 && d <= 0xdfff) return 4;
  }
  return 3;
}

function utf16Width(s: string, i: number): number {
  const c = s.charCodeAt(i);
  if (c >= 0xd800 && c <= 0xdbff) {
    const d = s.charCodeAt(i + 1);
    if (d >= 0xdc00 && d <= 0xdfff) return 2;
  }
  return 1;
}
