/**
 * Separator hierarchies for the recursive splitter, coarsest first, per language.
 *
 * The 16 languages that @langchain/textsplitters 1.x (JS) knows use EXACTLY its lists, in its order (compat mode
 * imports this table, so a difference would break byte-equality with LangChain), oddities included (rust lists
 * '\nconst ' twice; html has no '\n' level).
 * ts, kotlin, csharp and c are Chunkscope's own lists: LangChain JS has no preset for them, so compat mode refuses
 * them (see LANGCHAIN_JS_LANGUAGES).
 */
export const LANGUAGE_PRESETS: Record<string, string[]> = {
  cpp: [
    '\nclass ', '\nvoid ', '\nint ', '\nfloat ', '\ndouble ', '\nif ', '\nfor ', '\nwhile ', '\nswitch ',
    '\ncase ', '\n\n', '\n', ' ', '',
  ],
  go: [
    '\nfunc ', '\nvar ', '\nconst ', '\ntype ', '\nif ', '\nfor ', '\nswitch ', '\ncase ', '\n\n', '\n', ' ',
    '',
  ],
  java: [
    '\nclass ', '\npublic ', '\nprotected ', '\nprivate ', '\nstatic ', '\nif ', '\nfor ', '\nwhile ',
    '\nswitch ', '\ncase ', '\n\n', '\n', ' ', '',
  ],
  js: [
    '\nfunction ', '\nconst ', '\nlet ', '\nvar ', '\nclass ', '\nif ', '\nfor ', '\nwhile ', '\nswitch ',
    '\ncase ', '\ndefault ', '\n\n', '\n', ' ', '',
  ],
  php: [
    '\nfunction ', '\nclass ', '\nif ', '\nforeach ', '\nwhile ', '\ndo ', '\nswitch ', '\ncase ', '\n\n', '\n',
    ' ', '',
  ],
  proto: [
    '\nmessage ', '\nservice ', '\nenum ', '\noption ', '\nimport ', '\nsyntax ', '\n\n', '\n', ' ', '',
  ],
  python: [
    '\nclass ', '\ndef ', '\n\tdef ', '\n\n', '\n', ' ', '',
  ],
  rst: [
    '\n===\n', '\n---\n', '\n***\n', '\n.. ', '\n\n', '\n', ' ', '',
  ],
  ruby: [
    '\ndef ', '\nclass ', '\nif ', '\nunless ', '\nwhile ', '\nfor ', '\ndo ', '\nbegin ', '\nrescue ', '\n\n',
    '\n', ' ', '',
  ],
  rust: [
    '\nfn ', '\nconst ', '\nlet ', '\nif ', '\nwhile ', '\nfor ', '\nloop ', '\nmatch ', '\nconst ', '\n\n',
    '\n', ' ', '',
  ],
  scala: [
    '\nclass ', '\nobject ', '\ndef ', '\nval ', '\nvar ', '\nif ', '\nfor ', '\nwhile ', '\nmatch ', '\ncase ',
    '\n\n', '\n', ' ', '',
  ],
  swift: [
    '\nfunc ', '\nclass ', '\nstruct ', '\nenum ', '\nif ', '\nfor ', '\nwhile ', '\ndo ', '\nswitch ',
    '\ncase ', '\n\n', '\n', ' ', '',
  ],
  markdown: [
    '\n## ', '\n### ', '\n#### ', '\n##### ', '\n###### ', '```\n\n', '\n\n***\n\n', '\n\n---\n\n',
    '\n\n___\n\n', '\n\n', '\n', ' ', '',
  ],
  latex: [
    '\n\\chapter{', '\n\\section{', '\n\\subsection{', '\n\\subsubsection{', '\n\\begin{enumerate}',
    '\n\\begin{itemize}', '\n\\begin{description}', '\n\\begin{list}', '\n\\begin{quote}',
    '\n\\begin{quotation}', '\n\\begin{verse}', '\n\\begin{verbatim}', '\n\\begin{align}', '$$', '$', '\n\n',
    '\n', ' ', '',
  ],
  html: [
    '<body>', '<div>', '<p>', '<br>', '<li>', '<h1>', '<h2>', '<h3>', '<h4>', '<h5>', '<h6>', '<span>',
    '<table>', '<tr>', '<td>', '<th>', '<ul>', '<ol>', '<header>', '<footer>', '<nav>', '<head>', '<style>',
    '<script>', '<meta>', '<title>', ' ', '',
  ],
  sol: [
    '\npragma ', '\nusing ', '\ncontract ', '\ninterface ', '\nlibrary ', '\nconstructor ', '\ntype ',
    '\nfunction ', '\nevent ', '\nmodifier ', '\nerror ', '\nstruct ', '\nenum ', '\nif ', '\nfor ', '\nwhile ',
    '\ndo while ', '\nassembly ', '\n\n', '\n', ' ', '',
  ],
  // --- Not in LangChain JS: Chunkscope's own hierarchies (declarations first, then control flow, then lines). ---
  ts: [
    '\nexport ', '\nfunction ', '\nclass ', '\ninterface ', '\ntype ', '\nenum ', '\nconst ', '\nlet ', '\nvar ',
    '\nif ', '\nfor ', '\nwhile ', '\nswitch ', '\ncase ', '\ndefault ', '\n\n', '\n', ' ', '',
  ],
  kotlin: [
    '\nclass ', '\nobject ', '\ninterface ', '\nfun ', '\nval ', '\nvar ', '\nif ', '\nfor ', '\nwhile ',
    '\nwhen ', '\nelse ', '\n\n', '\n', ' ', '',
  ],
  csharp: [
    '\nnamespace ', '\nclass ', '\ninterface ', '\nstruct ', '\nenum ', '\npublic ', '\nprivate ', '\nprotected ',
    '\ninternal ', '\nstatic ', '\nif ', '\nfor ', '\nforeach ', '\nwhile ', '\nswitch ', '\ncase ', '\n\n', '\n',
    ' ', '',
  ],
  c: [
    '\n#define ', '\nstruct ', '\nenum ', '\nunion ', '\ntypedef ', '\nvoid ', '\nint ', '\nchar ', '\nfloat ',
    '\ndouble ', '\nstatic ', '\nif ', '\nfor ', '\nwhile ', '\nswitch ', '\ncase ', '\n\n', '\n', ' ', '',
  ],
};

/** Language names accepted by `--language` / the "Language preset" control, in a stable order. */
export const LANGUAGE_NAMES: string[] = Object.keys(LANGUAGE_PRESETS);

/** Languages whose preset is LangChain JS's own (its SupportedTextSplitterLanguages); compat mode accepts only these. */
export const LANGCHAIN_JS_LANGUAGES: ReadonlySet<string> = new Set([
  'cpp', 'go', 'java', 'js', 'php', 'proto', 'python', 'rst', 'ruby', 'rust', 'scala', 'swift', 'markdown', 'latex',
  'html', 'sol',
]);

/** The separators for a language, or undefined when the name is unknown. */
export function languageSeparators(language: string): string[] | undefined {
  return Object.prototype.hasOwnProperty.call(LANGUAGE_PRESETS, language) ? LANGUAGE_PRESETS[language] : undefined;
}
