#!/usr/bin/env node
// The `rapport` executable: Node runs the TypeScript sources directly (type stripping), so the
// shim only checks that this Node can, and hands over. `npm exec` / `npx` put Node 24 on PATH.
if (!process.features?.typescript) {
  process.stderr.write(`rapport needs Node 23.6+ (found ${process.version}); run it through npx or npm exec\n`);
  process.exit(1);
}
await import('../src/main.ts');
