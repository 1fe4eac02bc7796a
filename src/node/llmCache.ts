/**
 * The LLM answer cache as a directory (the CLI's --llm-cache DIR): one file per key (keys are base-36 hashes, safe
 * file names), written to a temporary file and renamed, so a crash or two runs at once never leave half an answer.
 * Only the model's answer text is stored: never the API key, nor the prompt.
 */
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { LlmCache } from '../core/llm/cache';

export class DirectoryCache implements LlmCache {
  private ready: Promise<unknown> | null = null;
  constructor(readonly dir: string) {}

  private fileOf(key: string): string {
    if (!/^[0-9a-z-]+$/.test(key)) throw new Error(`bad cache key "${key}"`);
    return join(this.dir, `${key}.txt`);
  }

  async get(key: string): Promise<string | undefined> {
    try {
      return await readFile(this.fileOf(key), 'utf8');
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
      throw err;
    }
  }

  async set(key: string, value: string): Promise<void> {
    this.ready ??= mkdir(this.dir, { recursive: true });
    await this.ready;
    const file = this.fileOf(key);
    const temp = `${file}.${process.pid}.${Math.random().toString(36).slice(2)}.tmp`;
    await writeFile(temp, value, 'utf8');
    await rename(temp, file);
  }
}
