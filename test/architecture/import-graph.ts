// The import graph of src/: for every .ts and .cts file, the files it imports (static, `import type`, re-exports and dynamic
// `import('…')`, as the TypeScript compiler's own pre-processor finds them, comments and strings left out) and the
// packages it imports. Pure functions over that graph find the strongly connected components (file cycles).

import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import ts from 'typescript';

export interface SourceFile {
  /** Repository-relative path, e.g. `src/server/app.ts`. */
  path: string;
  /** Repository-relative paths of the files of the repository it imports. */
  files: string[];
  /** Those of `files` it imports only through `import type` / `export type` (erased at build: nothing loads). */
  typeOnlyFiles: string[];
  /** Bare specifiers: packages and built-ins (`fastify`, `node:http`). */
  packages: string[];
  /** Those of `packages` it imports only through `import type` / `export type`. */
  typeOnlyPackages: string[];
  lines: number;
}

/** Every .ts and .cts file under `root`/src, with its imports. */
export function readImportGraph(root: string): Map<string, SourceFile> {
  const graph = new Map<string, SourceFile>();
  for (const path of tsFiles(root, 'src')) {
    const text = readFileSync(join(root, path), 'utf8');
    const files: string[] = [];
    const packages: string[] = [];
    // The sources import `./x.js`: the file is `./x.ts`.
    const fileOf = (specifier: string) =>
      relative(root, resolve(root, dirname(path), specifier)).replace(/\.js$/, '.ts');
    const all = ts.preProcessFile(text, true, true).importedFiles.map((imported) => imported.fileName);
    for (const specifier of all) {
      if (specifier.startsWith('.')) files.push(fileOf(specifier));
      else packages.push(specifier);
    }
    const typeOnly = typeOnlySpecifiers(path, text);
    const onlyTypes = [...typeOnly.entries()]
      .filter(([specifier, count]) => all.filter((s) => s === specifier).length === count)
      .map(([specifier]) => specifier);
    const typeOnlyFiles = onlyTypes.filter((specifier) => specifier.startsWith('.')).map(fileOf);
    const typeOnlyPackages = onlyTypes.filter((specifier) => !specifier.startsWith('.'));
    graph.set(path, {
      path,
      files: [...new Set(files)],
      typeOnlyFiles,
      packages,
      typeOnlyPackages,
      lines: lineCount(text),
    });
  }
  return graph;
}

/** How many `import type … from` / `export type … from` statements name each specifier. */
function typeOnlySpecifiers(path: string, text: string): Map<string, number> {
  const counts = new Map<string, number>();
  const source = ts.createSourceFile(path, text, ts.ScriptTarget.Latest, false, ts.ScriptKind.TS);
  for (const statement of source.statements) {
    const typeOnly =
      (ts.isImportDeclaration(statement) && statement.importClause?.isTypeOnly === true) ||
      (ts.isExportDeclaration(statement) && statement.isTypeOnly);
    if (!typeOnly) continue;
    const specifier = (statement as ts.ImportDeclaration | ts.ExportDeclaration).moduleSpecifier;
    if (specifier !== undefined && ts.isStringLiteral(specifier)) {
      counts.set(specifier.text, (counts.get(specifier.text) ?? 0) + 1);
    }
  }
  return counts;
}

function tsFiles(root: string, dir: string): string[] {
  const out: string[] = [];
  for (const entry of readdirSync(join(root, dir), { withFileTypes: true })) {
    const path = `${dir}/${entry.name}`;
    if (entry.isDirectory()) out.push(...tsFiles(root, path));
    else if (entry.name.endsWith('.ts') || entry.name.endsWith('.cts')) out.push(path);
  }
  return out.sort();
}

function lineCount(text: string): number {
  if (text === '') return 0;
  return text.split('\n').length - (text.endsWith('\n') ? 1 : 0);
}

/** The file cycles: each strongly connected component of more than one file, its paths sorted (Tarjan). */
export function fileCycles(edges: ReadonlyMap<string, readonly string[]>): string[][] {
  let counter = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const components: string[][] = [];
  const visit = (node: string): void => {
    index.set(node, counter);
    low.set(node, counter);
    counter++;
    stack.push(node);
    onStack.add(node);
    for (const next of edges.get(node) ?? []) {
      if (!edges.has(next)) continue;
      if (!index.has(next)) {
        visit(next);
        low.set(node, Math.min(low.get(node)!, low.get(next)!));
      } else if (onStack.has(next)) {
        low.set(node, Math.min(low.get(node)!, index.get(next)!));
      }
    }
    if (low.get(node) !== index.get(node)) return;
    const component: string[] = [];
    let member: string;
    do {
      member = stack.pop()!;
      onStack.delete(member);
      component.push(member);
    } while (member !== node);
    if (component.length > 1) components.push(component.sort());
  };
  for (const node of [...edges.keys()].sort()) if (!index.has(node)) visit(node);
  return components.sort((a, b) => a[0]!.localeCompare(b[0]!));
}
