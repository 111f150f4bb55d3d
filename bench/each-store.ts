// The frame of the store benchmarks (retention.ts, orphan-sweep.ts): one measurement on the
// embedded store and, with DATABASE_URL, one on PostgreSQL in a schema of its own, dropped after.
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { loadConfig } from '../packages/server/src/config.ts';
import { openStores } from '../packages/server/src/compose/open-stores.ts';
import type { Stores } from '../packages/server/src/compose/stores.ts';
import { randomToken } from '../packages/server/src/ids.ts';

export async function onEachStore(tmpPrefix: string, measure: (name: string, stores: Stores) => Promise<void>): Promise<void> {
  const dir = mkdtempSync(path.join(os.tmpdir(), tmpPrefix));
  try {
    const { stores } = await openStores(loadConfig({ DATA_DIR: dir, LOG_LEVEL: 'silent' }), () => undefined);
    try {
      await measure('embedded store', stores);
    } finally {
      await stores.backend.close();
    }
    const url = process.env.DATABASE_URL;
    if (!url) return;
    const schema = `bench_${randomToken(10).toLowerCase()}`;
    const opened = await openStores(loadConfig({ DATA_DIR: dir, LOG_LEVEL: 'silent', DATABASE_URL: url, DATABASE_SCHEMA: schema }), () => undefined);
    try {
      await measure('PostgreSQL', opened.stores);
    } finally {
      await opened.stores.backend.close();
      const admin = new pg.Client({ connectionString: url });
      await admin.connect();
      await admin.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`).finally(() => admin.end());
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
