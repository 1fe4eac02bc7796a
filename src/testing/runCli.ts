import { main } from '../cli/main';

/** Runs the CLI in-process as a person would from a shell: argv in, exit code and both streams out (tests only). */
export async function runCli(argv: string[], stdin: Uint8Array | string = ''): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const bytes = typeof stdin === 'string' ? new TextEncoder().encode(stdin) : stdin;
  const code = await main(argv, { stdout: (s) => void (out += s), stderr: (s) => void (err += s), readStdin: async () => bytes });
  return { code, out, err };
}
