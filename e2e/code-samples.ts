import type { CODE_LANGUAGE_NAMES } from '../src/core/strategies/code/languages';

// Shared by the CLI test (src/cli/codeLanguages.test.ts) and the page test (e2e/hardening.spec.ts).
/** A small program per grammar: two top-level definitions, so the splitter has something to cut between. */
export const CODE_SAMPLES: Record<(typeof CODE_LANGUAGE_NAMES)[number], string> = {
  python: 'def first(a):\n    return a + 1\n\n\nclass Second:\n    def method(self):\n        return 2\n',
  javascript: 'function first(a) {\n  return a + 1;\n}\n\nclass Second {\n  method() {\n    return 2;\n  }\n}\n',
  typescript: 'function first(a: number): number {\n  return a + 1;\n}\n\ninterface Shape {\n  area(): number;\n}\n',
  tsx: 'export function First(props: { name: string }) {\n  return <div>{props.name}</div>;\n}\n\nconst x: number = 2;\n',
  go: 'package main\n\nfunc first(a int) int {\n\treturn a + 1\n}\n\ntype Second struct {\n\tx int\n}\n',
  java: 'class First {\n  int first(int a) {\n    return a + 1;\n  }\n}\n\ninterface Second {\n  int area();\n}\n',
  rust: 'fn first(a: i32) -> i32 {\n    a + 1\n}\n\nstruct Second {\n    x: i32,\n}\n',
  c: 'int first(int a) {\n  return a + 1;\n}\n\nstruct second {\n  int x;\n};\n',
  cpp: 'int first(int a) {\n  return a + 1;\n}\n\nclass Second {\n public:\n  int x;\n};\n',
};
