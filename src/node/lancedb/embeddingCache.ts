/**
 * Embeddings cached by text on disk: one file per vector, named by sha256 of (model id, dimensions, text), so a
 * re-run, another shard or another table never embeds the same text with the same model twice. Files are written
 * to a temporary name and renamed (a killed run leaves no half vector), and a file of the wrong length is ignored.
 */
import { createHash } from 'node:crypto';
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Embedder } from '../../embed/types';

/** Texts embedded per call to the model. */
const EMBED_BATCH = 64;

export class EmbeddingCache {
  /** Texts found in the cache / embedded by the model, since this cache was made. */
  readonly counts = { cached: 0, computed: 0 };

  constructor(
    private readonly dir: string,
    private readonly embedder: Embedder,
  ) {}

  get dims(): number {
    return this.embedder.info.dims;
  }

  /** One vector per text, in order; a blank text gets a zero vector (the model takes none). */
  async vectors(texts: readonly string[]): Promise<Float32Array[]> {
    const out: (Float32Array | undefined)[] = await Promise.all(texts.map((t) => (t.trim() === '' ? new Float32Array(this.dims) : this.read(t))));
    const missing: number[] = [];
    out.forEach((v, i) => (v === undefined ? missing.push(i) : undefined));
    this.counts.cached += texts.length - missing.length;
    for (let from = 0; from < missing.length; from += EMBED_BATCH) {
      const batch = missing.slice(from, from + EMBED_BATCH);
      const vectors = await this.embedder.embed(batch.map((i) => texts[i]!));
      await Promise.all(batch.map((i, j) => this.write(texts[i]!, vectors[j]!)));
      batch.forEach((i, j) => (out[i] = vectors[j]!));
      this.counts.computed += batch.length;
    }
    return out as Float32Array[];
  }

  private pathOf(text: string): string {
    const { id, dims } = this.embedder.info;
    const key = createHash('sha256').update(`${id}\u0000${dims}\u0000${text}`).digest('hex');
    return join(this.dir, key.slice(0, 2), `${key}.f32`);
  }

  private async read(text: string): Promise<Float32Array | undefined> {
    const bytes = await readFile(this.pathOf(text)).catch(() => undefined);
    if (!bytes || bytes.length !== this.dims * 4) return undefined;
    // Copied into an aligned buffer: the file's Buffer may start at any byte offset of Node's pool.
    return new Float32Array(new Uint8Array(bytes).buffer);
  }

  private async write(text: string, vector: Float32Array): Promise<void> {
    const path = this.pathOf(text);
    await mkdir(join(path, '..'), { recursive: true });
    const temporary = `${path}.${process.pid}.${Math.random().toString(36).slice(2)}.tmp`;
    await writeFile(temporary, new Uint8Array(vector.buffer, vector.byteOffset, vector.byteLength));
    await rename(temporary, path);
  }
}
