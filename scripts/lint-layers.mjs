#!/usr/bin/env node
/**
 * `npm run lint`: the layer rules of docs/design (see /work/shared/design.md "Layers"), checked with
 * dependency-cruiser. Prints one line per violation and exits 1 if there is any.
 *
 * TypeScript 7 has no JS compiler API, so dependency-cruiser cannot use `tsc` here, and its swc parser does
 * not read .tsx; it reads TypeScript through Babel (@babel/preset-typescript) instead. Two passes:
 *
 *  - "every import" (rules 1, 2 and 4): type-only imports and dynamic import() count too. A small Babel plugin
 *    turns `import type … from 'x'` / `export type … from 'x'` and type positions `import('x').T` into
 *    `import 'x'` before the TypeScript preset would drop them.
 *  - "what the main thread loads" (rule 3): what a bundler keeps: type-only imports (and imports only used as
 *    types) are elided, dynamic import() is not followed (pdfjs-dist and mammoth are loaded that way), and
 *    every other static import is followed transitively (dependency-cruiser `reachable`).
 *
 * Usage: node scripts/lint-layers.mjs [paths...]   (default: src; paths relative to the current directory)
 */
import { cruise } from 'dependency-cruiser';
import presetTypescript from '@babel/preset-typescript';

const MAIN_THREAD = '^(src/(ui|state|bridge)/|src/(main|startApp)\\.tsx$)';
const WORKER_ONLY_PACKAGES = '(markdown-it|mdast-util-from-markdown|mdast-util-gfm|micromark[^/]*|htmlparser2|web-tree-sitter)';
/** Worker-only code: strategy implementations, the structure parsers, and the parser packages they use. */
const WORKER_ONLY = [
  '^src/core/strategies/[^/]+/split[^/]*\\.tsx?$',
  '^src/core/structure/',
  `(^|/)node_modules/${WORKER_ONLY_PACKAGES}/`,
  `^${WORKER_ONLY_PACKAGES}(/|$)`, // a bare specifier that was not resolved
];
const TESTS = '\\.test\\.tsx?$';

/** Rules checked on every import, type-only and dynamic ones included. */
export const EVERY_IMPORT_RULES = [
  {
    name: 'ui-imports-state-and-core-only',
    comment: 'src/ui must not import src/worker or src/bridge (go through src/state)',
    severity: 'error',
    from: { path: '^src/ui/' },
    to: { path: '^src/(worker|bridge)/' },
  },
  {
    name: 'core-imports-only-core',
    comment: 'src/core must not import files outside src/core (npm packages are fine; tests may use src/node and samples)',
    severity: 'error',
    from: { path: '^src/core/', pathNot: TESTS },
    to: { dependencyTypes: ['local'], pathNot: '^src/core/' },
  },
];

/**
 * Rule 4: no import circle that spans more than one folder. A circle inside one folder (a.ts ↔ b.ts beside it) is
 * that folder's business; one through several folders means two layers each need the other (contracts belong in a
 * leaf module both import: src/core/types.ts, src/core/registry.ts). `$1` is the folder of the importing file:
 * the rule fires when some file of the circle lies outside it.
 */
export const CIRCLE_RULES = [
  {
    name: 'no-circle-across-folders',
    comment: 'an import circle through more than one folder: move what both sides need into a leaf module',
    severity: 'error',
    from: { path: '^(.+)/[^/]+$' },
    to: { circular: true, via: { pathNot: '^$1/[^/]+$' } },
  },
];

/** Rules checked on what a bundler would load statically. */
export const RUNTIME_RULES = [
  {
    name: 'main-thread-no-worker-only-code',
    comment: 'main-thread code must not statically load worker-only code (strategies/*/split*, structure/, parser packages), directly or transitively',
    severity: 'error',
    from: { path: MAIN_THREAD, pathNot: TESTS },
    to: { path: WORKER_ONLY, reachable: true },
  },
];

/** Babel plugin: keep type-only imports/exports as plain imports so that the dependency is seen. */
function keepTypeImports({ types: t }) {
  const isTypeOnly = (node) =>
    node.importKind === 'type' ||
    node.exportKind === 'type' ||
    (node.specifiers?.length > 0 && node.specifiers.every((s) => s.importKind === 'type' || s.exportKind === 'type'));
  const asPlainImport = (path) => {
    if (path.node.source && isTypeOnly(path.node)) path.replaceWith(t.importDeclaration([], t.stringLiteral(path.node.source.value)));
  };
  return {
    visitor: {
      Program(program) {
        const typePositionImports = new Set();
        program.traverse({
          ImportDeclaration: asPlainImport,
          ExportNamedDeclaration: asPlainImport,
          ExportAllDeclaration: asPlainImport,
          // `type T = import('./x').T`: a dependency on ./x that no import statement shows.
          TSImportType(path) {
            const argument = path.node.argument;
            const source = argument.type === 'StringLiteral' ? argument.value : argument.literal?.value;
            if (typeof source === 'string') typePositionImports.add(source);
          },
        });
        for (const source of typePositionImports) program.unshiftContainer('body', t.importDeclaration([], t.stringLiteral(source)));
      },
    },
  };
}

const RESOLVE = {
  extensions: ['.ts', '.tsx', '.mjs', '.js', '.json'],
  conditionNames: ['import', 'module', 'browser', 'default'],
  mainFields: ['module', 'browser', 'main'],
};

async function pass(paths, rules, { everyImport, baseDir }) {
  const babelConfig = {
    babelrc: false,
    configFile: false,
    presets: [[presetTypescript, everyImport ? { onlyRemoveTypeImports: true } : {}]],
    plugins: everyImport ? [keepTypeImports] : [],
  };
  const { output } = await cruise(
    paths,
    {
      baseDir,
      ruleSet: { forbidden: rules },
      validate: true,
      doNotFollow: { path: 'node_modules' },
      exclude: everyImport ? {} : { path: TESTS, dynamic: true },
      enhancedResolveOptions: RESOLVE,
      outputType: 'json',
    },
    undefined,
    { babelConfig },
  );
  const { summary } = typeof output === 'string' ? JSON.parse(output) : output;
  // TypeScript files count as "scannable" to dependency-cruiser only when tsc or swc is installed; globs are
  // expanded without that check, and resolved .ts/.tsx files are followed (RESOLVE.extensions). Never pass silently.
  if (summary.totalCruised === 0) throw new Error(`lint: no files cruised in ${paths.join(' ')}`);
  return summary.violations;
}

/** A directory becomes a glob of its TypeScript files (see the note in pass()). */
function asGlobs(paths) {
  return paths.map((p) => (/\.(tsx?|mjs|js)$/.test(p) || p.includes('*') ? p : `${p.replace(/\/$/, '')}/**/*.{ts,tsx}`));
}

/** One line per violation. A transitive one is reported once per main-thread import that leads to worker-only code. */
export function formatViolations(violations, mainThread = new RegExp(MAIN_THREAD), workerOnly = WORKER_ONLY.map((p) => new RegExp(p))) {
  const lines = new Set();
  for (const v of violations) {
    if (v.cycle && v.cycle.length > 0) {
      lines.add(formatCircle(v));
      continue;
    }
    if (!v.via || v.via.length === 0) {
      lines.add(`${v.from} → ${v.unresolvedTo && v.unresolvedTo !== v.to ? `${v.unresolvedTo} (${v.to})` : v.to}  [${v.rule.name}]`);
      continue;
    }
    const chain = [v.from, ...v.via.map((d) => d.name)];
    if (chain[chain.length - 1] !== v.to) chain.push(v.to);
    const lastMain = chain.findLastIndex((m) => mainThread.test(m));
    const firstWorkerOnly = chain.findIndex((m) => workerOnly.some((r) => r.test(m)));
    const from = chain[lastMain];
    const into = chain[lastMain + 1];
    const hit = chain[firstWorkerOnly];
    const between = chain.slice(lastMain + 2, firstWorkerOnly);
    lines.add(`${from} → ${into} reaches worker-only ${hit}${between.length ? ` (via ${between.join(' → ')})` : ''}  [${v.rule.name}]`);
  }
  return [...lines].sort();
}

/** A circle once, however many of its imports report it: started at its first file in name order. */
function formatCircle(v) {
  const members = [v.from, ...v.cycle.map((d) => (typeof d === 'string' ? d : d.name))];
  if (members[members.length - 1] === members[0]) members.pop();
  const first = members.indexOf([...members].sort()[0]);
  const ring = [...members.slice(first), ...members.slice(0, first)];
  return `import circle across folders (${ring.length} files): ${[...ring, ring[0]].join(' → ')}  [${v.rule.name}]`;
}

/** The violations in `paths` (relative to `baseDir`), one formatted line each. */
export async function lintLayers(paths = ['src'], { baseDir = process.cwd() } = {}) {
  const globs = asGlobs(paths);
  const violations = [
    ...(await pass(globs, [...EVERY_IMPORT_RULES, ...CIRCLE_RULES], { everyImport: true, baseDir })),
    ...(await pass(globs, RUNTIME_RULES, { everyImport: false, baseDir })),
  ];
  return formatViolations(violations);
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const lines = await lintLayers(process.argv.length > 2 ? process.argv.slice(2) : ['src']);
  for (const line of lines) console.log(line);
  if (lines.length > 0) {
    console.error(`lint: ${lines.length} layer violation(s) (rules in scripts/lint-layers.mjs)`);
    process.exit(1);
  }
  console.log('lint: layers ok');
}
