import type { CodeLanguageName } from './languages';

// The splitter's rules per grammar, apart from ./languages.ts (names, extensions: what options and the page need),
// so validating options does not load them; the code strategy's implementation (src/core/structure) imports them.

/**
 * How the splitter reads a grammar's tree: which node types are definitions (kept whole, named in headingPath,
 * their signature put in the prefix of chunks cut inside them), which wrap a definition (decorators, `export`,
 * `template <...>`: the wrapper is the unit, the wrapped node gives name and body), and which siblings stay glued
 * to the definition after them (comments, attributes).
 */
export interface GrammarRules {
  definitions: ReadonlySet<string>;
  /** Wrapper type → the field holding the wrapped declaration (null: its last named child). */
  wrappers: ReadonlyMap<string, string | null>;
  /** Node types that belong to the next sibling when nothing but one line break separates them. */
  leading: ReadonlySet<string>;
  /** Declarations that are definitions only when they bind a function or class (`const f = () => {}`). */
  bindings: ReadonlySet<string>;
}

const JS_DEFINITIONS = [
  'function_declaration',
  'generator_function_declaration',
  'class_declaration',
  'method_definition',
];
const TS_DEFINITIONS = [
  ...JS_DEFINITIONS,
  'abstract_class_declaration',
  'interface_declaration',
  'type_alias_declaration',
  'enum_declaration',
  'internal_module',
  'module',
  'function_signature',
];
const C_DEFINITIONS = ['function_definition', 'struct_specifier', 'union_specifier', 'enum_specifier', 'type_definition'];

const rules = (
  definitions: string[],
  wrappers: [string, string | null][] = [],
  leading: string[] = ['comment'],
  bindings: string[] = [],
): GrammarRules => ({
  definitions: new Set(definitions),
  wrappers: new Map(wrappers),
  leading: new Set(leading),
  bindings: new Set(bindings),
});

const JS_BINDINGS = ['lexical_declaration', 'variable_declaration', 'field_definition', 'public_field_definition'];

export const GRAMMAR_RULES: Record<CodeLanguageName, GrammarRules> = {
  python: rules(['function_definition', 'class_definition'], [['decorated_definition', 'definition']]),
  // A decorator of a class member is its sibling in the class body: glued to the member like a comment.
  javascript: rules(JS_DEFINITIONS, [['export_statement', 'declaration']], ['comment', 'decorator'], JS_BINDINGS),
  typescript: rules(TS_DEFINITIONS, [['export_statement', 'declaration'], ['ambient_declaration', null]], ['comment', 'decorator'], JS_BINDINGS),
  tsx: rules(TS_DEFINITIONS, [['export_statement', 'declaration'], ['ambient_declaration', null]], ['comment', 'decorator'], JS_BINDINGS),
  go: rules(['function_declaration', 'method_declaration', 'type_declaration']),
  java: rules([
    'class_declaration',
    'interface_declaration',
    'enum_declaration',
    'record_declaration',
    'annotation_type_declaration',
    'method_declaration',
    'constructor_declaration',
    'compact_constructor_declaration',
  ], [], ['line_comment', 'block_comment']),
  rust: rules(
    ['function_item', 'struct_item', 'enum_item', 'union_item', 'impl_item', 'trait_item', 'mod_item', 'macro_definition'],
    [],
    ['line_comment', 'block_comment', 'attribute_item'],
  ),
  c: rules(C_DEFINITIONS),
  cpp: rules([...C_DEFINITIONS, 'class_specifier', 'namespace_definition'], [['template_declaration', null]]),
};
