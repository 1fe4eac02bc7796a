#!/usr/bin/env node
// `npm run models:fetch -- <model id> [--dtype q8|fp32] [--endpoint <url>] [--out <folder>] [--revision <rev>]`
//
// Stores a Hugging Face hub model under public/models/<model id>/ so that the page and the CLI load it from our own
// origin (transformers.js looks for local models at <localModelPath>/<model id>/ before the hub): for workshops
// without internet, and for self-hosting. It fetches the four files transformers.js' feature-extraction pipeline
// needs: config.json, tokenizer.json, tokenizer_config.json and the ONNX weights for the dtype
// (onnx/model_quantized.onnx for q8, the browser default; onnx/model.onnx for fp32).
//
// Every file is written next to its place as <name>.part and renamed when complete, so an interrupted download
// never leaves a file that looks whole. Errors are one line on stderr and exit status 1.
import { createWriteStream } from 'node:fs';
import { mkdir, rename, rm } from 'node:fs/promises';
import { dirname, join, relative, resolve } from 'node:path';
import { Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const DEFAULT_ENDPOINT = 'https://huggingface.co';
const WEIGHTS = { q8: 'onnx/model_quantized.onnx', fp32: 'onnx/model.onnx' };
const USAGE = 'usage: npm run models:fetch -- <model id, e.g. Xenova/all-MiniLM-L6-v2> [--dtype q8|fp32] [--endpoint <url>] [--out <folder>]';

class FetchError extends Error {}

function parseArgs(argv) {
  const options = { dtype: 'q8', endpoint: DEFAULT_ENDPOINT, out: join(root, 'public', 'models'), revision: 'main' };
  const positional = [];
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === '--help' || arg === '-h') {
      console.log(USAGE);
      process.exit(0);
    }
    const flag = /^--(dtype|endpoint|out|revision)(?:=(.*))?$/.exec(arg);
    if (flag) {
      const value = flag[2] ?? argv[++i];
      if (value === undefined || value === '') throw new FetchError(`--${flag[1]} needs a value`);
      options[flag[1]] = value;
    } else if (arg.startsWith('--')) {
      throw new FetchError(`unknown option ${arg}; ${USAGE}`);
    } else {
      positional.push(arg);
    }
  }
  if (positional.length !== 1) throw new FetchError(positional.length ? `one model id at a time, got ${positional.join(' ')}` : USAGE);
  const [id] = positional;
  // owner/name as the hub spells it; never a path that climbs out of public/models.
  if (!/^[\w.-]+(\/[\w.-]+)?$/.test(id) || id.split('/').some((part) => part === '.' || part === '..')) {
    throw new FetchError(`"${id}" is not a hub model id (owner/name, e.g. Xenova/all-MiniLM-L6-v2)`);
  }
  if (!(options.dtype in WEIGHTS)) throw new FetchError(`--dtype must be q8 or fp32, got ${options.dtype}`);
  let endpoint;
  try {
    endpoint = new URL(options.endpoint);
  } catch {
    throw new FetchError(`--endpoint must be a URL, got ${options.endpoint}`);
  }
  return { ...options, id, endpoint, out: resolve(options.out) };
}

function megabytes(bytes) {
  return `${(bytes / 1e6).toFixed(1)} MB`;
}

/** One progress line, rewritten in place on a terminal; a line per file (and every 25%) otherwise. */
function progressReporter(id) {
  const tty = process.stderr.isTTY;
  let lastQuarter = -1;
  return {
    update(file, loaded, total) {
      const share = total ? ` (${Math.floor((loaded / total) * 100)}%)` : '';
      const line = `${id}: ${file} ${megabytes(loaded)}${total ? ` / ${megabytes(total)}` : ''}${share}`;
      if (tty) {
        process.stderr.write(`\r${line}\x1b[K`);
      } else if (total) {
        const quarter = Math.floor((loaded / total) * 4);
        if (quarter !== lastQuarter) {
          lastQuarter = quarter;
          process.stderr.write(`${line}\n`);
        }
      }
    },
    done(file, bytes) {
      lastQuarter = -1;
      const line = `${id}: ${file} ${megabytes(bytes)}`;
      process.stderr.write(tty ? `\r${line}\x1b[K\n` : `${line} done\n`);
    },
  };
}

function describeNetworkError(error) {
  // fetch() wraps the socket error: "fetch failed" with the useful part ("getaddrinfo ENOTFOUND …") in `cause`.
  const cause = error?.cause ?? error;
  return String(cause?.message || cause?.code || cause);
}

async function download({ id, endpoint, revision, folder }, file, target, progress) {
  const url = new URL(`${endpoint.pathname.replace(/\/$/, '')}/${id}/resolve/${encodeURIComponent(revision)}/${file}`, endpoint);
  const headers = process.env.HF_TOKEN ? { authorization: `Bearer ${process.env.HF_TOKEN}` } : {};
  let response;
  try {
    response = await fetch(url, { headers, redirect: 'follow' });
  } catch (error) {
    throw new FetchError(
      `cannot reach ${endpoint.host}: ${describeNetworkError(error)}; connect to the internet or copy the model folder into ${relative(process.cwd(), folder) || '.'}`,
    );
  }
  if (response.status === 404) {
    throw new FetchError(`${id} has no ${file} on ${endpoint.host} (HTTP 404): check the model id${file === WEIGHTS.q8 ? ', or try --dtype fp32' : ''}`);
  }
  if (response.status === 401 || response.status === 403) {
    throw new FetchError(`${endpoint.host} refused ${file} of ${id} (HTTP ${response.status}): the model is gated or private; set HF_TOKEN`);
  }
  if (!response.ok || !response.body) throw new FetchError(`${endpoint.host} answered HTTP ${response.status} for ${file} of ${id}`);

  const total = Number(response.headers.get('content-length')) || 0;
  let loaded = 0;
  const counter = new Transform({
    transform(chunk, _encoding, callback) {
      loaded += chunk.length;
      progress.update(file, loaded, total);
      callback(null, chunk);
    },
  });
  await mkdir(dirname(target), { recursive: true });
  const partial = `${target}.part`;
  try {
    await pipeline(Readable.fromWeb(response.body), counter, createWriteStream(partial));
  } catch (error) {
    await rm(partial, { force: true });
    throw new FetchError(`download of ${file} broke off after ${megabytes(loaded)}: ${describeNetworkError(error)}`);
  }
  if (total && loaded !== total) {
    await rm(partial, { force: true });
    throw new FetchError(`download of ${file} is incomplete (${loaded} of ${total} bytes); run the command again`);
  }
  await rename(partial, target);
  progress.done(file, loaded);
  return loaded;
}

async function main() {
  const options = parseArgs(process.argv.slice(2));
  const folder = join(options.out, ...options.id.split('/'));
  const files = ['config.json', 'tokenizer_config.json', 'tokenizer.json', WEIGHTS[options.dtype]];
  const progress = progressReporter(options.id);
  let bytes = 0;
  for (const file of files) bytes += await download({ ...options, folder }, file, join(folder, ...file.split('/')), progress);
  const where = relative(process.cwd(), folder) || '.';
  console.log(`saved ${options.id} (${files.length} files, ${megabytes(bytes)}, dtype ${options.dtype}) in ${where}`);
}

main().catch((error) => {
  if (process.stderr.isTTY) process.stderr.write('\n');
  const message = error instanceof FetchError ? error.message : `unexpected error: ${error?.stack ?? error}`;
  console.error(`models:fetch: ${message}`);
  process.exit(1);
});
