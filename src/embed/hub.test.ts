import { execFile } from 'node:child_process';
import { createReadStream, existsSync, readFileSync, statSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BUILTIN_MODEL, embedderCatalogue, findEmbedderModel, formatBytes, HUB_MODELS } from './hub';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
const builtinFolder = join(root, 'public', 'models', BUILTIN_MODEL.folder);

describe('embedder catalogue', () => {
  it('lists the built-in model first, then the hub models the issue names', () => {
    const ids = embedderCatalogue().map((model) => model.id);
    expect(ids[0]).toBe('builtin');
    expect(ids).toEqual(expect.arrayContaining(['Xenova/all-MiniLM-L6-v2', 'Xenova/bge-small-en-v1.5']));
    expect(HUB_MODELS.some((model) => model.multilingual)).toBe(true);
    expect(HUB_MODELS.some((model) => model.lateChunking && model.maxTokens >= 8192)).toBe(true);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('describes the built-in model as its shipped files do', () => {
    const config = JSON.parse(readFileSync(join(builtinFolder, 'config.json'), 'utf8'));
    expect(BUILTIN_MODEL.dims).toBe(config.hidden_size);
    expect(BUILTIN_MODEL.maxTokens).toBe(Infinity); // tokenizer_config has no model_max_length
    expect(JSON.parse(readFileSync(join(builtinFolder, 'tokenizer_config.json'), 'utf8')).model_max_length).toBeUndefined();
    expect(findEmbedderModel('builtin')).toBe(BUILTIN_MODEL);
    expect(findEmbedderModel('chunkscope-static-en')).toBe(BUILTIN_MODEL);
  });

  it('finds hub models by id, and the jina model under the name people know', () => {
    expect(findEmbedderModel('jinaai/jina-embeddings-v2-small-en')?.id).toBe('Xenova/jina-embeddings-v2-small-en');
    expect(findEmbedderModel('Xenova/all-MiniLM-L6-v2')?.maxTokens).toBe(256);
    expect(findEmbedderModel('someone/else')).toBeUndefined();
    expect(formatBytes(23_700_000)).toBe('23.7 MB');
  });
});

/**
 * `npm run models:fetch` against a hub stand-in: a loopback HTTP server that answers the hub's
 * /<id>/resolve/<revision>/<file> URLs from the built-in model's folder.
 */
describe('scripts/models-fetch.mjs', () => {
  const files = ['config.json', 'tokenizer.json', 'tokenizer_config.json', 'onnx/model_quantized.onnx'];
  const requested: string[] = [];
  let server: Server;
  let endpoint: string;
  let out: string;

  beforeAll(async () => {
    server = createServer((request, response) => {
      requested.push(request.url ?? '');
      const match = /^\/test-org\/static-model\/resolve\/main\/(.+)$/.exec(request.url ?? '');
      const file = match && join(builtinFolder, match[1]!);
      if (!file || !file.startsWith(builtinFolder) || !existsSync(file)) {
        response.writeHead(404).end('Entry not found');
        return;
      }
      response.writeHead(200, { 'content-length': statSync(file).size, 'content-type': 'application/octet-stream' });
      createReadStream(file).pipe(response);
    });
    await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
    endpoint = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    out = await mkdtemp(join(tmpdir(), 'models-fetch-'));
  });

  afterAll(async () => {
    await new Promise((done) => server.close(done));
    await rm(out, { recursive: true, force: true });
  });

  function fetchModel(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
    return new Promise((done) => {
      execFile('node', [join(root, 'scripts', 'models-fetch.mjs'), ...args], { cwd: root }, (error, stdout, stderr) =>
        done({ code: error ? Number(error.code ?? 1) : 0, stdout, stderr }),
      );
    });
  }

  it('stores the four files byte for byte under <out>/<model id>/, with progress in bytes', async () => {
    const result = await fetchModel('test-org/static-model', '--endpoint', endpoint, '--out', out);
    expect(result.stderr).not.toMatch(/models:fetch:/);
    expect(result.code).toBe(0);
    for (const file of files) {
      const fetched = await readFile(join(out, 'test-org', 'static-model', file));
      expect(fetched.equals(await readFile(join(builtinFolder, file))), file).toBe(true);
    }
    expect(existsSync(join(out, 'test-org', 'static-model', 'onnx', 'model_quantized.onnx.part'))).toBe(false);
    expect(result.stderr).toMatch(/onnx\/model_quantized\.onnx \d+\.\d MB \/ 3\.1 MB \(100%\)/);
    expect(result.stdout).toMatch(/^saved test-org\/static-model \(4 files, 3\.6 MB, dtype q8\)/);
    expect(requested).toContain('/test-org/static-model/resolve/main/tokenizer_config.json');
  });

  it('the folder it wrote loads through createEmbedder with downloads off (how the app self-hosts)', async () => {
    const { createEmbedder } = await import('./index');
    const embedder = await createEmbedder({ model: 'test-org/static-model', localModelPath: `${out}/`, allowRemote: false });
    const builtin = await createEmbedder({ model: 'builtin' });
    try {
      const texts = ['the river flows to the sea', 'astronauts orbit the moon'];
      const [fetched, shipped] = [await embedder.embed(texts), await builtin.embed(texts)];
      expect(fetched[0]).toHaveLength(BUILTIN_MODEL.dims);
      fetched.forEach((vector, i) => vector.forEach((x, d) => expect(x).toBeCloseTo(shipped[i]![d]!, 6)));
    } finally {
      await embedder.dispose();
      await builtin.dispose();
    }
  });

  it('says in one line what is wrong: a missing model, fp32 weights that do not exist, no network', async () => {
    const missing = await fetchModel('test-org/nothing', '--endpoint', endpoint, '--out', out);
    expect(missing.code).toBe(1);
    expect(missing.stderr.trim()).toBe(`models:fetch: test-org/nothing has no config.json on ${new URL(endpoint).host} (HTTP 404): check the model id`);

    const fp32 = await fetchModel('test-org/static-model', '--dtype', 'fp32', '--endpoint', endpoint, '--out', out);
    expect(fp32.code).toBe(1);
    expect(fp32.stderr).toMatch(/has no onnx\/model\.onnx .*HTTP 404/);
    expect(existsSync(join(out, 'test-org', 'static-model', 'onnx', 'model.onnx'))).toBe(false);

    // A port nobody listens on: what an offline machine sees.
    const closed = createServer();
    await new Promise<void>((done) => closed.listen(0, '127.0.0.1', done));
    const deadPort = (closed.address() as AddressInfo).port;
    await new Promise((done) => closed.close(done));
    const offline = await fetchModel('Xenova/all-MiniLM-L6-v2', '--endpoint', `http://127.0.0.1:${deadPort}`, '--out', out);
    expect(offline.code).toBe(1);
    const lines = offline.stderr.trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(
      new RegExp(`^models:fetch: cannot reach 127\\.0\\.0\\.1:${deadPort}: .*ECONNREFUSED.*; connect to the internet or copy the model folder into .*Xenova/all-MiniLM-L6-v2$`),
    );
  });

  it('refuses an id that is not owner/name', async () => {
    const result = await fetchModel('../../etc', '--endpoint', endpoint, '--out', out);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/is not a hub model id/);
  });
});
