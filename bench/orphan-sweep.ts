// `node bench/orphan-sweep.ts`: the start-up sweep of stored files without a media row
// (serve.ts) on the embedded store and, with DATABASE_URL (a schema of its own, dropped after),
// on PostgreSQL. ORPHAN_BENCH_FILES files (default 2,500), then four times as many, each an hour
// old, half of them with a row. Counted: the store's statements, as the sweep asks now (one per
// ORPHAN_BATCH files) and as it asked before (one per file, hasRow's query); timed: the sweep, and
// the longest gap of a 5 ms timer meanwhile (the event loop). A count is what to compare: the
// times depend on the machine, their ratio for 4N and N files says whether the sweep stays linear.
import { mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { storeDb, type Stores } from '../packages/server/src/compose/stores.ts';
import { SqlMediaStore } from '../packages/server/src/files/media.store.ts';
import { FileBlobStore, type FilesWithRows } from '../packages/server/src/store/blob-store.ts';
import { countedSql } from '../packages/server/test/counted-sql.ts';
import { generateApiKey, generateSigningSecret } from '../packages/server/src/workspace/workspace.store.ts';
import { randomToken } from '../packages/server/src/ids.ts';
import { onEachStore } from './each-store.ts';
import { watchLoopGap } from './loop-gap.ts';

const N = Number(process.env.ORPHAN_BENCH_FILES ?? 2_500);
let seq = 1_000_000;


/** `files` files an hour old in a fresh media folder, every other one with a row (written in bulk: the sweep is measured). */
async function fill(stores: Stores, ws: string, files: number): Promise<{ blobs: FileBlobStore; dir: string }> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'rapport-orphans-'));
  const blobs = new FileBlobStore(dir);
  const hourAgo = (Date.now() - 3600 * 1000) / 1000;
  const ids = Array.from({ length: files }, () => `med_${randomToken(16)}`);
  for (const id of ids) {
    const p = path.join(dir, 'media', id);
    writeFileSync(p, 'x');
    utimesSync(p, hourAgo, hourAgo);
  }
  const claimed = ids.filter((_, i) => i % 2 === 0);
  const now = new Date().toISOString();
  for (let start = 0; start < claimed.length; start += 500) {
    const values = claimed.slice(start, start + 500)
      .map((id) => `('${id}', '${ws}', 'transcript', 'a.vtt', 'text/vtt', 1, '${'0'.repeat(64)}', '/x/${id}', 'ready', '${now}', ${seq++})`);
    await storeDb(stores).run(`INSERT INTO media (id, workspace_id, kind, filename, content_type, size_bytes, sha256, storage_path, analysis_status, created_at, seq) VALUES ${values.join(', ')}`);
  }
  return { blobs, dir };
}

async function sweepOnce(stores: Stores, ws: string, files: number, perFile: boolean): Promise<{ statements: number; ms: number; maxGapMs: number; removed: number }> {
  const { blobs, dir } = await fill(stores, ws, files);
  const { db, statements } = countedSql(storeDb(stores));
  const media = new SqlMediaStore(db);
  const withRows: FilesWithRows = perFile
    ? async (ids) => {
        const out = new Set<string>();
        for (const id of ids) if ((await db.get('SELECT 1 AS x FROM media WHERE id = ?', id)) !== undefined) out.add(id);
        return out;
      }
    : (ids) => media.filesWithRows(ids);
  const stopWatch = watchLoopGap();
  const started = performance.now();
  try {
    const removed = await blobs.sweepOrphans(withRows, 60 * 1000);
    const ms = performance.now() - started;
    return { statements: statements(), ms, maxGapMs: stopWatch(), removed };
  } finally {
    stopWatch();
    rmSync(dir, { recursive: true, force: true });
  }
}

async function measure(name: string, stores: Stores): Promise<void> {
  const ws = (await stores.workspaces.createWorkspace({ name: 'bench', apiKey: generateApiKey(), signingSecret: generateSigningSecret(), initialCredits: 10 })).workspace.id;
  // Warmed up first (both ways), so that the first measured sweep does not pay for compiling the code.
  await sweepOnce(stores, ws, 500, false);
  await sweepOnce(stores, ws, 500, true);
  for (const [how, perFile] of [['batched (now)', false], ['a query per file (before)', true]] as const) {
    const small = await sweepOnce(stores, ws, N, perFile);
    const large = await sweepOnce(stores, ws, 4 * N, perFile);
    console.log(
      `${name}, ${how}: ${N} files: ${small.statements} statements, ${small.ms.toFixed(0)} ms; ${4 * N} files: ${large.statements} statements, ${large.ms.toFixed(0)} ms `
      + `(4N/N time ${(large.ms / small.ms).toFixed(2)}); removed ${small.removed} and ${large.removed}; longest event-loop gap ${Math.max(small.maxGapMs, large.maxGapMs).toFixed(1)} ms (5 ms timer)`,
    );
  }
}

await onEachStore('rapport-orphans-db-', measure);
