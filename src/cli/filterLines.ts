/**
 * Standard input as numbered lines, for the JSONL filter mode: bytes are split at each newline as they arrive, so a
 * line is handed on as soon as its newline is read (a dataflow engine's pipe sees output before it closes input),
 * and memory holds one line at most. A line longer than the cap is not kept: its bytes are dropped up to its
 * newline and it is reported as too long. Invalid UTF-8 in a line is reported for that line only.
 */

export type InputLine = { number: number; text: string } | { number: number; problem: string };

const NEWLINE = 0x0a;

export async function* readLines(source: AsyncIterable<Uint8Array> | Promise<Uint8Array>, maxLineBytes: number): AsyncGenerator<InputLine> {
  const decoder = new TextDecoder('utf-8', { fatal: true, ignoreBOM: false });
  let parts: Uint8Array[] = [];
  let length = 0;
  let tooLong = false;
  let number = 0;
  const finish = (): InputLine => {
    number++;
    const bytes = parts.length === 1 ? parts[0]! : concat(parts, length);
    const wasTooLong = tooLong;
    parts = [];
    length = 0;
    tooLong = false;
    if (wasTooLong) return { number, problem: `longer than ${maxLineBytes.toLocaleString('en-US')} bytes (raise it with --max-bytes)` };
    try {
      return { number, text: decoder.decode(bytes) };
    } catch {
      return { number, problem: 'not valid UTF-8' };
    }
  };
  const keep = (block: Uint8Array): void => {
    if (tooLong || block.length === 0) return;
    if (length + block.length > maxLineBytes) {
      tooLong = true;
      parts = [];
      length = 0;
      return;
    }
    parts.push(block);
    length += block.length;
  };
  const blocks = source instanceof Promise ? [await source] : source;
  for await (const block of blocks) {
    let from = 0;
    for (let at = block.indexOf(NEWLINE); at >= 0; at = block.indexOf(NEWLINE, from)) {
      keep(block.subarray(from, at));
      // Copied when kept whole: the stream may reuse its buffer for the next block.
      yield finish();
      from = at + 1;
    }
    if (from < block.length) keep(block.slice(from));
  }
  if (length > 0 || tooLong) yield finish();
}

function concat(parts: readonly Uint8Array[], length: number): Uint8Array {
  const out = new Uint8Array(length);
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.length;
  }
  return out;
}
