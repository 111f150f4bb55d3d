// Fails when any import cycle exists among the project's TypeScript files (BullMQ runs
// `madge --circular` before its tests for the same reason: cycles make load order fragile).
// Type-only imports count: a cycle of `import type` costs nothing at run time, but it ties the
// files together all the same (the service container and the services it listed imported each
// other that way, unseen while this check skipped them). `node scripts/check-cycles.ts [DIR]`
// checks DIR instead of packages/.
import path from 'node:path';
import madge from 'madge';

const root = path.join(import.meta.dirname, '..');
const dir = path.resolve(process.argv[2] ?? path.join(root, 'packages'));

const graph = await madge(dir, {
  fileExtensions: ['ts', 'tsx'],
  tsConfig: path.join(root, 'tsconfig.json'),
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
