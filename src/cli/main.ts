import { readFile } from 'node:fs/promises';
import { parseArgs } from 'node:util';
import { ChunkOptionsError, validateOptions, type ChunkHooks } from '../core/index';
import { chunk } from '../node/index';
import { EXPORT_FORMATS, formatChunks, type ExportFormat } from '../core/format';
import type { ChunkOptions } from '../core/types';
import type { Embedder } from '../embed/types';
import { CliError, importInput, parseDecimal, parseEscapes, parseWholeNumber } from './input';

const USAGE = `Usage: chunkscope chunk <file|-> [options]

Cut a text file (or standard input, "-") into chunks and print them (JSON by default).

Options:
  --strategy <name>        fixed | token | character | sentence | paragraph | recursive | semantic |
                           markdown | html | code (default: recursive)
  --size <n>               maximum chunk size in the unit (default depends on the strategy)
  --overlap <n>            overlap between neighbouring chunks, smaller than --size
  --unit <name>            chars | words | cl100k_base | o200k_base | p50k_base | r50k_base | gpt2
  --separator <s>          a separator; repeat for a hierarchy (escapes: \\n \\r \\t \\\\ \\u{..})
  --regex                  treat separators as regular expressions
  --keep-separator <where> start | end | none
  --language <name>        recursive separator preset (markdown, python, js, ...)
  --compat <mode>          langchain: reproduce @langchain/textsplitters exactly (character, recursive, token),
                           SemanticChunker (semantic) or MarkdownHeaderTextSplitter (markdown);
                           llamaindex: SemanticSplitterNodeParser (semantic) or MarkdownNodeParser (markdown)
  --locale <tag>           sentence segmentation locale (default: en)
  --document-id <id>       used in the stable chunk ids (default: a hash of the text)
  --format <name>          json (default: a JSON array) | jsonl (one object per line) | csv |
                           langchain (Document JSON: pageContent, metadata) | llamaindex (TextNode JSON)

Structure (--strategy markdown | html | code): chunks carry metadata.headingPath (the breadcrumbs), contentType
(text | table | code) and, from a PDF, pages. PDF and DOCX files are read too.
  --heading-depth <n>      split at headings of depth 1..n (default: 3)
  --rows-as-text           table chunks' content as "column: value" lines
  --keep-headers           markdown --compat langchain: keep the header lines (strip_headers=False)
  --each-line              markdown --compat langchain: one chunk per line (return_each_line=True)
  --path <file>            the file path used in code prefixes, {file} and code language detection
                           (default: the input file's path)
  --headers                put a contextual header before each chunk's content: the heading path and a
                           blank line; it counts in the size (chunks are cut to leave room for it)
  --header-template <t>    a header of your own with {title} {path} {file}, e.g. "{title}: {path}\\n\\n"
  --drop-page-furniture    PDF: drop lines repeated at the top or bottom of most pages

Retrieval units (one at a time; metadata.level, parentId and leaf say which chunk is which):
  --parent-size <n>        parent–child: parents of n units (sections for markdown/html), children of --size
  --window <n>             sentence windows: one chunk per sentence, metadata.window = n sentences each side
  --levels <a,b,c>         hierarchical: nested levels, largest first (e.g. 2048,512,128)

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
        'heading-depth': { type: 'string' },
        'rows-as-text': { type: 'boolean' },
        'keep-headers': { type: 'boolean' },
        'each-line': { type: 'boolean' },
        path: { type: 'string' },
        headers: { type: 'boolean' },
        'header-template': { type: 'string' },
        'drop-page-furniture': { type: 'boolean' },
        'parent-size': { type: 'string' },
        window: { type: 'string' },
        levels: { type: 'string' },
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
  if (values['heading-depth'] !== undefined) options.headingDepth = parseWholeNumber('--heading-depth', values['heading-depth']);
  if (values['rows-as-text']) options.rowsAsText = true;
  if (values['keep-headers']) options.stripHeaders = false;
  if (values['each-line']) options.returnEachLine = true;
  if (values.headers) options.headers = true;
  if (values['header-template'] !== undefined) options.headers = parseEscapes(values['header-template']);
  if (values['parent-size'] !== undefined) options.parentSize = parseWholeNumber('--parent-size', values['parent-size']);
  if (values.window !== undefined) options.window = parseWholeNumber('--window', values.window);
  if (values.levels !== undefined) options.levels = values.levels.split(',').map((v) => parseWholeNumber('--levels', v.trim()));
  const path = values.path ?? (input === '-' ? undefined : input);
  if (path !== undefined) options.path = path;
  validateOptions(options); // bad options fail before the file is read or a model loads

  const bytes = input === '-' ? await io.readStdin() : await readInputFile(input);
  // PDF and DOCX are converted (PDF with its page starts); text files are decoded as UTF-8 (binary refused).
  const imported = await importInput(bytes, input === '-' ? 'standard input' : input, { dropPageFurniture: values['drop-page-furniture'] === true });
  const text = imported.text;
  for (const note of imported.notes) io.stderr(`chunkscope: note: ${note}\n`);
  if (imported.pageStarts) options.pageStarts = imported.pageStarts;
  const resolved = validateOptions(options);
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
    io.stdout(formatChunks(chunks, format, { source: input === '-' ? 'stdin' : input, text, documentId: options.documentId }));
  } finally {
    await embedder?.dispose();
  }
  return 0;
}

async function readInputFile(path: string): Promise<Uint8Array> {
  try {
    const buffer = await readFile(path);
    // A plain Uint8Array: pdfjs refuses Node Buffers.
    return new Uint8Array(buffer.buffer, buffer.byteOffset, buffer.byteLength);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') throw new CliError(`cannot read "${path}": no such file`);
    if (code === 'EISDIR') throw new CliError(`cannot read "${path}": it is a directory`);
    if (code === 'EACCES') throw new CliError(`cannot read "${path}": permission denied`);
    throw new CliError(`cannot read "${path}": ${code ?? (err as Error).message}`);
  }
}

const CLI_FORMATS = EXPORT_FORMATS;
type CliFormat = ExportFormat;
