// A real service for tests written in other languages (clients/python/tests): starts one as the
// SDK's own tests do (packages/client/test/real-service.ts: a fresh store, its worker, loose rate
// limits), prints `{ url, apiKey, signingSecret }` as one JSON line, and closes it when stdin
// ends, so the service never outlives the test process that started it. With `--wav PATH` it
// first writes the two-voice test conversation there; each `--env NAME=VALUE` is passed to the
// service's configuration (for example WEBHOOK_ALLOW_PRIVATE=true).
import { writeFileSync } from 'node:fs';
import { start, twoVoiceWav } from '../packages/client/test/real-service.ts';

const args = process.argv.slice(2);
let wavPath: string | undefined;
const env: Record<string, string> = {};
for (let i = 0; i < args.length; i += 2) {
  const [flag, value] = [args[i], args[i + 1]];
  if (flag === '--wav' && value) wavPath = value;
  else if (flag === '--env' && value?.includes('=')) env[value.slice(0, value.indexOf('='))] = value.slice(value.indexOf('=') + 1);
  else {
    console.error('usage: test-service.ts [--wav PATH] [--env NAME=VALUE]...');
    process.exit(2);
  }
}
if (wavPath) writeFileSync(wavPath, twoVoiceWav());
const service = await start(env);
process.stdout.write(`${JSON.stringify({ url: service.url, apiKey: service.apiKey, signingSecret: service.signingSecret })}\n`);
process.stdin.resume();
process.stdin.on('end', () => {
  service.close().then(() => process.exit(0), (err: unknown) => {
    console.error(err);
    process.exit(1);
  });
});
