// Fails when any import cycle exists among the project's TypeScript files (BullMQ runs
// `madge --circular` before its tests for the same reason: cycles make load order fragile).
// Type-only imports count: a cycle of `import type` costs nothing at run time, but it ties the
// files together all the same (the service container and the services it listed imported each
// other that way, unseen while this check skipped them). `node scripts/check-cycles.ts [DIR]`
// checks DIR instead of packages/.
// Imports between the workspace packages (`@rapport/analysis`, ...) resolve through symlinks in
// node_modules, which madge leaves out: they are mapped here to each package's exported source
// files, so that a cycle across packages is seen too.
import { readFileSync, readdirSync, existsSync } from 'node:fs';
import path from 'node:path';
import madge from 'madge';

const root = path.join(import.meta.dirname, '..');
const dir = path.resolve(process.argv[2] ?? path.join(root, 'packages'));

/** `@rapport/NAME[/SUBPATH]` -> the source file each workspace package exports there (the development condition where there is one). */
function workspacePaths(rootDir: string): Record<string, string[]> {
  const paths: Record<string, string[]> = {};
  for (const name of readdirSync(path.join(rootDir, 'packages'))) {
    const file = path.join(rootDir, 'packages', name, 'package.json');
    if (!existsSync(file)) continue;
    const pkg = JSON.parse(readFileSync(file, 'utf8')) as { name?: string; exports?: Record<string, string | Record<string, string>> };
    for (const [sub, target] of Object.entries(pkg.exports ?? {})) {
      const source = typeof target === 'string' ? target : (target.development ?? target.default);
      if (!pkg.name || !source) continue;
      paths[sub === '.' ? pkg.name : `${pkg.name}/${sub.slice(2)}`] = [path.join('packages', name, source)];
    }
  }
  return paths;
}

const tsConfig = JSON.parse(readFileSync(path.join(root, 'tsconfig.json'), 'utf8')) as { compilerOptions: Record<string, unknown> };
// A DIR named `packages` is a workspace of its own (the check's test builds one); else the repository's.
const workspace = path.basename(dir) === 'packages' ? path.dirname(dir) : root;
tsConfig.compilerOptions = { ...tsConfig.compilerOptions, baseUrl: workspace, paths: workspacePaths(workspace) };

const graph = await madge(dir, {
  fileExtensions: ['ts', 'tsx'],
  tsConfig,
  excludeRegExp: [/node_modules/, /\/dist\//],
  detectiveOptions: { ts: { skipTypeImports: false }, tsx: { skipTypeImports: false } },
});
const cycles = graph.circular();
if (cycles.length > 0) {
  console.error(`${cycles.length} import ${cycles.length === 1 ? 'cycle' : 'cycles'} (type-only imports count too):`);
  for (const cycle of cycles) console.error(`  ${[...cycle, cycle[0]].join(' -> ')}`);
  process.exit(1);
}
console.log(`no import cycles among ${Object.keys(graph.obj()).length} files`);
