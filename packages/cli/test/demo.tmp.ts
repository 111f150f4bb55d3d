import { start, twoVoiceWav } from '../../client/test/real-service.ts';
import { mkdirSync, writeFileSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
const s = await start();
mkdirSync('/tmp/demo', { recursive: true });
writeFileSync('/tmp/demo/conversation.wav', twoVoiceWav());
try {
  const out = execFileSync('bash', ['/tmp/demo.sh'], { env: { ...process.env, PATH: `/work/main/node_modules/.bin:${process.env.PATH}`, RAPPORT_API_KEY: s.apiKey, RAPPORT_BASE_URL: s.url }, encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] });
  console.log(out);
} finally { await s.close(); }
