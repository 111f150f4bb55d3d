// A real service for tests written in other languages (clients/python/tests): starts one as the
// SDK's own tests do (packages/client/test/real-service.ts: a fresh store, its worker, loose rate
// limits), prints `{ url, apiKey, signingSecret }` as one JSON line, and closes it when stdin
// ends, so the service never outlives the test process that started it. With `--wav PATH` it
// first writes the two-voice test conversation there.
import { writeFileSync } from 'node:fs';
import { start, twoVoiceWav } from '../packages/client/test/real-service.ts';

const args = process.argv.slice(2);
const wavAt = args.indexOf('--wav');
const wavPath = wavAt >= 0 ? args[wavAt + 1] : undefined;
if (wavAt >= 0 && !wavPath) {
  console.error('usage: test-service.ts [--wav PATH]');
  process.exit(2);
}
if (wavPath) writeFileSync(wavPath, twoVoiceWav());
const service = await start();
process.stdout.write(`${JSON.stringify({ url: service.url, apiKey: service.apiKey, signingSecret: service.signingSecret })}\n`);
process.stdin.resume();
process.stdin.on('end', () => {
  service.close().then(() => process.exit(0), (err: unknown) => {
    console.error(err);
    process.exit(1);
  });
});
