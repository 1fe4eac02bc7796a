/**
 * The semantic strategy's options, merged into the option rows (src/core/optionRows.ts) in this order, where their
 * shape is checked (OptionRow). A leaf like the rows themselves: it imports nothing (an import of ../../optionRows
 * here would be an import circle, which `npm run lint` refuses).
 */

/** The most neighbouring sentences embedded with a sentence. */
export const MAX_BUFFER = 100;

export const SEMANTIC_OPTION_ROWS = [
  {
    name: 'breakpoint',
    flag: 'breakpoint',
    kind: 'choice',
    choices: ['percentile', 'standard_deviation', 'interquartile', 'gradient', 'absolute'],
    default: 'percentile',
    group: 'semantic',
    arg: '<mode>',
    help: 'how a cut is chosen: percentile | standard_deviation | interquartile | gradient | absolute',
    control: { kind: 'select', label: 'Breakpoint' },
  },
  {
    name: 'amount',
    flag: 'amount',
    kind: 'number',
    default: null,
    group: 'semantic',
    arg: '<x>',
    help: "the mode's amount: percentile 95, standard_deviation 3, interquartile 1.5, gradient 95; absolute: the distance (e.g. 0.3)",
    aliases: ['threshold'],
    control: { kind: 'number', label: 'Threshold', step: 0.01 },
  },
  {
    name: 'chunks',
    flag: 'chunks',
    kind: 'integer',
    default: null,
    group: 'semantic',
    arg: '<n>',
    help: 'aim for n chunks (overrides --amount)',
    control: { kind: 'number', label: 'Target chunks', min: 1, placeholder: 'off' },
  },
  {
    name: 'buffer',
    flag: 'buffer',
    kind: 'integer',
    default: 1,
    group: 'semantic',
    arg: '<n>',
    help: 'neighbouring sentences on each side embedded with a sentence',
    control: { kind: 'number', label: 'Buffer', min: 0, max: MAX_BUFFER, unit: 'sentences' },
  },
  {
    name: 'minSize',
    flag: 'min-size',
    kind: 'integer',
    default: null,
    group: 'semantic',
    arg: '<n>',
    help: 'merge smaller chunks with a neighbour (in the unit)',
    control: { kind: 'number', label: 'Min size', min: 1, unit: 'unit', placeholder: 'none' },
  },
  {
    name: 'maxSize',
    flag: 'max-size',
    kind: 'integer',
    default: null,
    group: 'semantic',
    arg: '<n>',
    help: 'split larger chunks further (in the unit)',
    control: { kind: 'number', label: 'Max size', min: 1, unit: 'unit', placeholder: 'none' },
  },
  {
    name: 'embedder',
    flag: 'embedder',
    kind: 'string',
    default: 'builtin',
    group: 'semantic',
    arg: '<model>',
    help: 'builtin (the offline model shipped with Chunkscope) or a Hugging Face model id (e.g. Xenova/all-MiniLM-L6-v2)',
    control: { kind: 'select', label: 'Embedding model' },
  },
  {
    name: 'sentences',
    flag: 'sentences',
    kind: 'choice',
    choices: ['intl', 'regex'],
    default: 'intl',
    group: 'semantic',
    arg: 'intl|regex',
    help: "sentence finder: Intl.Segmenter (any language) or LangChain's regex",
    control: { kind: 'select', label: 'Sentences' },
  },
] as const;
