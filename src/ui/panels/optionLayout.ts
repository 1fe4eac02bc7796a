import { OPTION_TABLE, type OptionGroup, type OptionSpec } from '../../core/optionTable';
import type { ConfigName } from '../../state/configSlice';

/**
 * Which of the page's option controls are drawn from their rows (GroupFields in ./OptionFields.tsx) and which by
 * hand. An option with a `control` in the option table appears in its group's place by its control's kind, with
 * its label, range, unit, placeholder and help (the tooltip and the hint under it): adding an option needs nothing
 * here.
 *
 * The escape hatch: the few controls that need a widget of their own are named in HAND_DRAWN, with the reason, and
 * drawn by their panel (ControlsPanel, SemanticControls, StructureControls).
 */
export const HAND_DRAWN: Readonly<Partial<Record<ConfigName, string>>> = {
  strategy: 'the strategy select carries the description and a switch that remembers what it displaced',
  unit: 'titled encodings; disabled where the strategy fixes the unit',
  size: 'slider whose end follows the value',
  overlap: 'slider that ends below the size',
  compat: 'one checkbox per mode the strategy implements',
  keepSeparator: 'titled values; the strategy default shown while unset',
  language: "a grammar (the strategy's own choice) or a separator preset",
  separators: 'one separator per line with escapes, and the regex switch under it',
  separatorsAreRegex: 'drawn under the separators',
  locale: 'the strategy default as placeholder',
  breakpoint: "titled modes; a new mode resets the amount to the mode's scale",
  amount: "step and hint follow the breakpoint mode; disabled while a target count is set",
  chunks: 'paired with the breakpoint: its hint explains the override',
  buffer: 'paired with the sentence finder',
  sentences: 'fixed to the regex in LangChain mode',
  minSize: 'paired with max size',
  maxSize: 'paired with min size',
  embedder: 'the model catalogue, local folders and a "Load model folder…" button',
  path: "the document's name as placeholder",
  headingDepth: 'titled depths (h1–hN)',
  stripHeaders: "drawn under the LangChain compatibility checkbox (MarkdownHeaderTextSplitter's flags)",
  returnEachLine: "drawn under the LangChain compatibility checkbox (MarkdownHeaderTextSplitter's flags)",
  headers: 'three states (off, the default template, a custom template box)',
  retrieval: 'titled modes with their sub-options under the select',
  parentSize: 'under the retrieval select; sections as placeholder',
  window: 'under the retrieval select',
  levels: 'under the retrieval select, typed as text',
  // Page and evaluation settings are drawn by their own panels (the context budget, the evaluation lab).
  contextWindow: 'the context budget under the stats',
  chunksInContext: 'the context budget under the stats and the lab',
  projector: 'a page switch, not a control',
  retriever: 'the evaluation lab',
  hybridWeight: 'the evaluation lab',
  stopWords: 'the evaluation lab',
  stemming: 'the evaluation lab',
};

/** The control kinds GroupFields draws (a list of lines needs its own widget). */
export const GENERIC_KINDS: ReadonlySet<string> = new Set(['checkbox', 'number', 'select', 'slider', 'text']);

/** The options of a group drawn from their rows, in table order. */
export function genericallyDrawn(group: OptionGroup): OptionSpec[] {
  return OPTION_TABLE.filter((spec) => spec.group === group && spec.control && !spec.document && !(spec.name in HAND_DRAWN));
}
