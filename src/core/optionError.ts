/**
 * The error every bad option raises. A leaf (it imports nothing): the option table, the strategies' splitters and
 * the compat profiles all throw it, and none of them may import the others for it (`npm run lint` refuses circles
 * across folders).
 */

/** A bad option: `field` names the option (the library key), `message` is one human line. */
export class ChunkOptionsError extends Error {
  readonly field: string;
  constructor(field: string, message: string) {
    super(message);
    this.name = 'ChunkOptionsError';
    this.field = field;
  }
}

export function fail(field: string, message: string): never {
  throw new ChunkOptionsError(field, message);
}
