/**
 * Answers cached by a hash of what decides them: provider, model, prompt template id and version, and the input
 * text (the filled-in prompt). Never the API key. The page keeps them in IndexedDB, the CLI in a directory
 * (src/node/llmCache.ts), tests and the library by default in memory (here).
 */
import { hashString } from '../ids';

export interface LlmCache {
  get(key: string): Promise<string | undefined>;
  set(key: string, value: string): Promise<void>;
}

export interface CacheKeyParts {
  provider: string;
  model: string;
  templateId: string;
  templateVersion: number;
  /** The request as sent: system line, prompt and schema. */
  input: string;
}

/** A 106-bit key (two 53-bit hashes, base 36), safe as a file name. */
export function cacheKey(parts: CacheKeyParts): string {
  const canonical = JSON.stringify([parts.provider, parts.model, parts.templateId, parts.templateVersion, parts.input]);
  return `${hashString(canonical, 0x5eed)}-${hashString(canonical, 0xc0ffee)}`;
}

/** The cache in memory (a Map): the library's default, and the tests'. */
export class MemoryCache implements LlmCache {
  private readonly entries = new Map<string, string>();
  get size(): number {
    return this.entries.size;
  }
  async get(key: string): Promise<string | undefined> {
    return this.entries.get(key);
  }
  async set(key: string, value: string): Promise<void> {
    this.entries.set(key, value);
  }
}
