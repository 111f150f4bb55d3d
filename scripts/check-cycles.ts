// Fails when any import cycle exists among the project's TypeScript files (BullMQ runs
// `madge --circular` before its tests for the same reason: cycles make load order fragile).
import { execFileSync } from 'node:child_process';

const out = execFileSync(
  'npx',
  ['madge', '--circular', '--extensions', 'ts', '--ts-config', 'tsconfig.json', '--no-spinner', 'packages'],
  { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] },
);
if (/Found \d+ circular/.test(out)) {
  console.error(out);
  process.exit(1);
}
console.log('no import cycles');
