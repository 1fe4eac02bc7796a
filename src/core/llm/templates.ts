/**
 * The prompts, as data: id, version (part of every cache key: change the text, bump the version, and cached answers
 * stop matching), and text with {placeholders}. These are the defaults; a caller overrides any of them by id
 * (`llm.templates`). The answers' shapes are the features' JSON schemas (in their folders).
 */

export interface PromptTemplate {
  id: string;
  version: number;
  system: string;
  /** With {placeholders}: {document}, {chunk}, {passage}, {pieces}, {scope}, {section}. */
  text: string;
}

export const DEFAULT_TEMPLATES = {
  contextual: {
    id: 'contextual',
    version: 1,
    system: 'You situate passages of a document for search retrieval. Answer with JSON only.',
    text:
      '<document scope="{scope}">\n{document}\n</document>\n' +
      'Here is the chunk we want to situate within the whole document:\n<chunk>\n{chunk}\n</chunk>\n' +
      'Give a short succinct context (50 to 100 tokens) to situate this chunk within the overall document for the ' +
      'purposes of improving search retrieval of the chunk. Answer as JSON: {"context": "..."}',
  },
  propositions: {
    id: 'propositions',
    version: 1,
    system: 'You decompose text into propositions. Answer with JSON only.',
    text:
      'Decompose the passage into clear and simple propositions: atomic statements, each self-contained (names ' +
      'instead of pronouns), each restating what the passage says and nothing else. Keep the passage\'s wording ' +
      'where you can.\n<passage>\n{passage}\n</passage>\nAnswer as JSON: {"propositions": ["...", "..."]}',
  },
  boundaries: {
    id: 'boundaries',
    version: 1,
    system: 'You find where topics change in a text. Answer with JSON only.',
    text:
      'The text below is split into numbered pieces. Give the ids of the pieces where a new topic starts (not 0), ' +
      'in increasing order.\n{pieces}\nAnswer as JSON: {"boundaries": [3, 7]}',
  },
  summaries: {
    id: 'summaries',
    version: 1,
    system: 'You summarise documents for search retrieval. Answer with JSON only.',
    text:
      'Summarise the {scope} below in two to four sentences, saying what it is about and what it concludes.\n' +
      '<text>\n{section}\n</text>\nAnswer as JSON: {"summary": "..."}',
  },
} as const satisfies Record<string, PromptTemplate>;

export type TemplateId = keyof typeof DEFAULT_TEMPLATES;

/** A template by id: the caller's override, else the default. */
export function templateFor(id: TemplateId, overrides?: Partial<Record<string, PromptTemplate>>): PromptTemplate {
  return overrides?.[id] ?? DEFAULT_TEMPLATES[id];
}

/** Fills {name} placeholders from `values` in one pass (a value containing "{chunk}" stays as it is). */
export function fillTemplate(text: string, values: Record<string, string>): string {
  return text.replace(/\{([a-z]+)\}/g, (whole, name: string) => (name in values ? values[name]! : whole));
}
