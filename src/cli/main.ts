import { readFile } from 'node:fs/promises';
import { parseArgs } from 'node:util';
import { chunk, ChunkOptionsError, documentIdFor, validateOptions, type ChunkHooks } from '../core/index';
import { formatChunks } from '../core/format';
import { toCsv, toLangChainDocuments, toLlamaIndexNodes } from '../core/export/index';
import type { Chunk, ChunkOptions } from '../core/types';
import type { Embedder } from '../embed/types';
import { CliError, decodeText, parseDecimal, parseEscapes, parseWholeNumber } from './input';

const USAGE = `Usage: chunkscope chunk <file|-> [options]

Cut a text file (or standard input, "-") into chunks and print them (JSON by default).

Options:
  --strategy <name>        fixed | token | character | sentence | paragraph | recursive | semantic
                           (default: recursive)
  --size <n>               maximum chunk size in the unit (default depends on the strategy)
  --overlap <n>            overlap between neighbouring chunks, smaller than --size
  --unit <name>            chars | words | cl100k_base | o200k_base | p50k_base | r50k_base | gpt2
  --separator <s>          a separator; repeat for a hierarchy (escapes: \\n \\r \\t \\\\ \\u{..})
  --regex                  treat separators as regular expressions
  --keep-separator <where> start | end | none
  --language <name>        recursive separator preset (markdown, python, js, ...)
  --compat <mode>          langchain: reproduce @langchain/textsplitters exactly (character, recursive, token)
                           or SemanticChunker (semantic); llamaindex: SemanticSplitterNodeParser (semantic)
  --locale <tag>           sentence segmentation locale (default: en)
  --document-id <id>       used in the stable chunk ids (default: a hash of the text)
  --format <name>          json (default: a JSON array) | jsonl (one object per line) | csv |
                           langchain (Document JSON: pageContent, metadata) | llamaindex (TextNode JSON)

Semantic chunking (--strategy semantic): cuts where neighbouring sentences' embeddings are far apart; each chunk
after the first has metadata.distanceBefore, the distance (1 - cosine) at the boundary before it.
  --embedder <model>       builtin (default: the offline model shipped with Chunkscope, no network) or a
                           Hugging Face model id (e.g. Xenova/all-MiniLM-L6-v2): read from public/models/
                           (npm run models:fetch -- <id>) or downloaded from the hub
  --breakpoint <mode>      percentile | standard_deviation | interquartile | gradient | absolute
                           (default: percentile)
  --threshold <x>          the mode's amount: percentile 95, standard_deviation 3, interquartile 1.5,
                           gradient 95; for absolute the distance itself (e.g. 0.3)
  --chunks <n>             aim for n chunks (overrides --threshold)
  --buffer <n>             neighbouring sentences on each side embedded with a sentence (default: 1)
  --min-size <n>           merge smaller chunks with a neighbour (in the unit)
  --max-size <n>           split larger chunks further (in the unit)
  --sentences intl|regex   sentence finder: Intl.Segmenter (default) or LangChain's regex
  -h, --help               show this help
  -v, --version            show the version`;

const VERSION = '0.1.0';

interface Io {
  stdout: (s: string) => void;
  stderr: (s: string) => void;
  readStdin: () => Promise<Uint8Array>;
}

const defaultIo: Io = {
  stdout: (s) => void process.stdout.write(s),
  stderr: (s) => void process.stderr.write(s),
  readStdin: async () => {
    const parts: Buffer[] = [];
    for await (const part of process.stdin) parts.push(part as Buffer);
    return Buffer.concat(parts);
  },
};

/** Runs the CLI; returns the exit code. Every failure is one line on stderr. */
export async function main(argv: string[], io: Io = defaultIo): Promise<number> {
  try {
    return await run(argv, io);
  } catch (err) {
    if (err instanceof CliError || err instanceof ChunkOptionsError) {
      io.stderr(`chunkscope: ${err.message}\n`);
      return 2;
    }
    const message = err instanceof Error ? err.message : String(err);
    io.stderr(`chunkscope: ${message.split('\n')[0]}\n`);
    return 1;
  }
}

async function run(argv: string[], io: Io): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      allowPositionals: true,
      strict: true,
      options: {
        strategy: { type: 'string' },
        size: { type: 'string' },
        overlap: { type: 'string' },
        unit: { type: 'string' },
        separator: { type: 'string', multiple: true },
        regex: { type: 'boolean' },
        'keep-separator': { type: 'string' },
        language: { type: 'string' },
        compat: { type: 'string' },
        locale: { type: 'string' },
        'document-id': { type: 'string' },
        format: { type: 'string' },
        embedder: { type: 'string' },
        breakpoint: { type: 'string' },
        threshold: { type: 'string' },
        chunks: { type: 'string' },
        buffer: { type: 'string' },
        'min-size': { type: 'string' },
        'max-size': { type: 'string' },
        sentences: { type: 'string' },
        help: { type: 'boolean', short: 'h' },
        version: { type: 'boolean', short: 'v' },
      },
    });
  } catch (err) {
    // parseArgs messages are long; keep the first sentence.
    throw new CliError(`${(err as Error).message.split('. ')[0]} (see --help)`);
  }
  const { values, positionals } = parsed;
  if (values.help) {
    io.stdout(USAGE + '\n');
    return 0;
  }
  if (values.version) {
    io.stdout(VERSION + '\n');
    return 0;
  }
  const [command, input, ...extra] = positionals;
  if (command === undefined) throw new CliError('missing command; try `chunkscope chunk <file>` (see --help)');
  if (command !== 'chunk') throw new CliError(`unknown command "${command}"; the command is "chunk" (see --help)`);
  if (input === undefined) throw new CliError('missing input: give a file path, or - for standard input');
  if (extra.length > 0) throw new CliError(`unexpected argument "${extra[0]}"`);

  const format = (values.format ?? 'json') as CliFormat;
  if (!CLI_FORMATS.includes(format)) throw new CliError(`unknown format "${values.format}"; use ${CLI_FORMATS.join(', ')}`);

  const options: ChunkOptions = {};
  if (values.strategy !== undefined) options.strategy = values.strategy as ChunkOptions['strategy'];
  if (values.size !== undefined) options.size = parseWholeNumber('--size', values.size);
  if (values.overlap !== undefined) options.overlap = parseWholeNumber('--overlap', values.overlap);
  if (values.unit !== undefined) options.unit = values.unit as ChunkOptions['unit'];
  if (values.separator !== undefined) options.separators = values.separator.map(parseEscapes);
  if (values.regex) options.separatorsAreRegex = true;
  if (values['keep-separator'] !== undefined) options.keepSeparator = values['keep-separator'] as ChunkOptions['keepSeparator'];
  if (values.language !== undefined) options.language = values.language;
  if (values.compat !== undefined) options.compat = values.compat as ChunkOptions['compat'];
  if (values.locale !== undefined) options.locale = values.locale;
  if (values['document-id'] !== undefined) options.documentId = values['document-id'];
  if (values.embedder !== undefined) options.embedder = values.embedder;
  if (values.breakpoint !== undefined) options.breakpoint = values.breakpoint as ChunkOptions['breakpoint'];
  if (values.threshold !== undefined) options.amount = parseDecimal('--threshold', values.threshold);
  if (values.chunks !== undefined) options.chunks = parseWholeNumber('--chunks', values.chunks);
  if (values.buffer !== undefined) options.buffer = parseWholeNumber('--buffer', values.buffer);
  if (values['min-size'] !== undefined) options.minSize = parseWholeNumber('--min-size', values['min-size']);
  if (values['max-size'] !== undefined) options.maxSize = parseWholeNumber('--max-size', values['max-size']);
  if (values.sentences !== undefined) options.sentences = values.sentences as ChunkOptions['sentences'];
  const resolved = validateOptions(options); // bad options fail before the file is read or a model loads

  const bytes = input === '-' ? await io.readStdin() : await readInputFile(input);
  const text = decodeText(bytes, input === '-' ? 'standard input' : input);
  // Notes (e.g. "one sentence: nothing to compare") go to stderr; the chunks on stdout stay valid JSON.
  const hooks: ChunkHooks = { onNote: (message) => io.stderr(`chunkscope: note: ${message}\n`) };
  let embedder: Embedder | undefined;
  if (resolved.strategy === 'semantic') {
    // Loaded only for semantic chunking: the other strategies never pay for transformers.js.
    const { createEmbedder } = await import('../embed/index');
    const model = resolved.embedder ?? 'builtin';
    // The built-in model never touches the network; a hub model id is fetched when it is not self-hosted.
    embedder = await createEmbedder({ model, allowRemote: model !== 'builtin' });
    const loaded = embedder;
    hooks.embed = (texts) => loaded.embed(texts);
  }
  try {
    const chunks = await chunk(text, options, hooks);
    io.stdout(render(chunks, format, text, { source: input === '-' ? 'stdin' : input, documentId: options.documentId }));
  } finally {
    await embedder?.dispose();
  }
  return 0;
}

async function readInputFile(path: string): Promise<Uint8Array> {
  try {
    return await readFile(path);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') throw new CliError(`cannot read "${path}": no such file`);
    if (code === 'EISDIR') throw new CliError(`cannot read "${path}": it is a directory`);
    if (code === 'EACCES') throw new CliError(`cannot read "${path}": permission denied`);
    throw new CliError(`cannot read "${path}": ${code ?? (err as Error).message}`);
  }
}

const CLI_FORMATS = ['json', 'jsonl', 'csv', 'langchain', 'llamaindex'] as const;
type CliFormat = (typeof CLI_FORMATS)[number];

/** The chunks in the format asked for; json and jsonl are the page's export, byte for byte. */
function render(chunks: Chunk[], format: CliFormat, text: string, about: { source: string; documentId?: string }): string {
  switch (format) {
    case 'json':
    case 'jsonl':
      return formatChunks(chunks, format);
    case 'csv':
      return toCsv(chunks);
    case 'langchain':
      return JSON.stringify(toLangChainDocuments(chunks, { source: about.source }), null, 2) + '\n';
    case 'llamaindex':
      // Python strings count code points: sourceText makes start/end_char_idx match them.
      return JSON.stringify(toLlamaIndexNodes(chunks, { documentId: about.documentId ?? documentIdFor(text), sourceText: text }), null, 2) + '\n';
  }
}
