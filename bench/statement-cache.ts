// Issue 41, finding 6: resident memory of the embedded store after the webhook dispatcher's query
// of due deliveries with 1..N saturated URLs left out (before the fix: one SQL text per length,
// each prepared statement kept). Run: node_modules/.bin/node --expose-gc bench/statement-cache.ts 2560
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SqliteDatabase } from '../packages/server/src/store/sqlite.ts';
import { SqlWebhookStore } from '../packages/server/src/webhooks/webhooks.store.ts';
const N = Number(process.argv[2] ?? 2560);
const db = await SqliteDatabase.open(join(mkdtempSync(join(tmpdir(), 'cache-')), 'rapport.db'));
const store = new SqlWebhookStore(db);
const urls = Array.from({ length: N }, (_, i) => `http://dead.example/hook?n=${i}`);
globalThis.gc?.();
const before = process.memoryUsage().rss;
for (let n = 1; n <= N; n++) await store.dueCandidates(Date.now(), { destinations: urls.slice(0, n), workspaces: [] }, 256, 256);
globalThis.gc?.();
const after = process.memoryUsage().rss;
console.log(`${N} lengths: RSS ${Math.round(before / 1e6)} -> ${Math.round(after / 1e6)} MB (+${Math.round((after - before) / 1e6)} MB)`);
await db.close();
