/** The engine's name and version, written into every chunk's metadata (kept equal to package.json by a test). */
export const CHUNKER_NAME = 'chunkscope';
export const CHUNKER_VERSION = '0.1.0';
