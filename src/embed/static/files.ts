/**
 * Reads a model file: in Node from the file system (the folder is a path), elsewhere with fetch (the folder is a URL
 * path such as /models/). No static import of node:fs, so the page's worker bundle stays free of it.
 */

/**
 * Node's file system, or null elsewhere. Reads are synchronous: a static model's files are a few megabytes read once,
 * and `fs/promises` reads them in many turns of the event loop (512 KiB at a time), which a one-document CLI run
 * spent waiting.
 */
function nodeFs(): { readFileSync(path: string): Uint8Array } | null {
  const p = (globalThis as { process?: { versions?: { node?: string }; getBuiltinModule?: (id: string) => unknown } }).process;
  if (typeof p?.versions?.node !== 'string' || typeof (globalThis as { window?: unknown }).window !== 'undefined') return null;
  return (p.getBuiltinModule?.('node:fs') as { readFileSync(path: string): Uint8Array } | undefined) ?? null;
}

export async function readModelFile(folder: string, file: string): Promise<Uint8Array> {
  const where = folder.endsWith('/') ? `${folder}${file}` : `${folder}/${file}`;
  const fs = nodeFs();
  if (fs) {
    const bytes = fs.readFileSync(where);
    return new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  }
  const response = await fetch(where);
  if (!response.ok) throw new Error(`${where}: HTTP ${response.status}`);
  return new Uint8Array(await response.arrayBuffer());
}

/** readModelFile, or null when the folder has no such file (ENOENT in Node, HTTP 404 elsewhere). */
export async function readOptionalModelFile(folder: string, file: string): Promise<Uint8Array | null> {
  const where = folder.endsWith('/') ? `${folder}${file}` : `${folder}/${file}`;
  const fs = nodeFs();
  if (fs) {
    try {
      const bytes = fs.readFileSync(where);
      return new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    } catch (err) {
      if ((err as { code?: unknown }).code === 'ENOENT') return null;
      throw err;
    }
  }
  const response = await fetch(where);
  if (response.status === 404) return null;
  if (!response.ok) throw new Error(`${where}: HTTP ${response.status}`);
  return new Uint8Array(await response.arrayBuffer());
}

export async function readModelJson<T>(folder: string, file: string): Promise<T> {
  return JSON.parse(new TextDecoder().decode(await readModelFile(folder, file))) as T;
}
