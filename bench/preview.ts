import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/** Serving the built app for the browser benchmarks (each picks a free port so it never collides with a test run). */

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');

export function freePort(): Promise<number> {
  return new Promise((resolvePort, reject) => {
    const server = createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolvePort(port));
    });
  });
}

/** `vite preview` of `outDir` (default: the config's dist/app) on `port`, resolved once it answers. */
export async function startPreview(port: number, outDir?: string): Promise<ChildProcess> {
  const args = ['vite', 'preview', ...(outDir ? ['--outDir', outDir] : []), '--port', String(port), '--strictPort', '--host', '127.0.0.1'];
  const server = spawn('npx', args, {
    cwd: root,
    stdio: ['ignore', 'ignore', 'inherit'],
    detached: true, // its own process group, so stopping it also stops the node process npx starts
  });
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    if (server.exitCode !== null) throw new Error(`vite preview exited with ${server.exitCode}`);
    try {
      if ((await fetch(`http://127.0.0.1:${port}/`)).ok) return server;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error('vite preview did not start within 60 s');
}

export function stopPreview(server: ChildProcess): void {
  if (server.pid && server.exitCode === null) {
    try {
      process.kill(-server.pid, 'SIGTERM');
    } catch {
      // already gone
    }
  }
}
