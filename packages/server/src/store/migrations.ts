// Schema of both stores, as one ordered list of migrations with one numbering (issue 34). Each
// runs once, in its own transaction, and is recorded in schema_migrations (on PostgreSQL under an
// advisory lock, pg.ts). A migration is one SQL text for both engines, or one per engine where
// their types differ (INTEGER / BIGINT, REAL / DOUBLE PRECISION) or where one engine already had
// the change; '' changes nothing on that engine but is recorded all the same, so that both engines
// stand at the same version. Never edit a migration that has shipped; add a new one.
import { PG_V1, SQLITE_V1 } from './schema-v1.ts';

export type Engine = 'sqlite' | 'pg';
export interface Migration {
  version: number;
  sql: string | Record<Engine, string>;
}

/** The SQL `m` runs on `engine` ('' for none). */
export function migrationSql(m: Migration, engine: Engine): string {
  return typeof m.sql === 'string' ? m.sql : m.sql[engine];
}

/**
 * Before issue 34 the PostgreSQL store numbered its migrations apart: its version n is the list's
 * versions PG_VERSIONS_BEFORE_34[n]. pg.ts renumbers the rows of an older schema_migrations once.
 */
export const PG_VERSIONS_BEFORE_34: Record<number, number[]> = { 1: [1, 2, 3, 5], 2: [6], 3: [4], 4: [7], 5: [8], 6: [9], 7: [10], 8: [11] };

export const MIGRATIONS: Migration[] = [
  {
    // The first schema (store/schema-v1.ts).
    version: 1,
    sql: { sqlite: SQLITE_V1, pg: PG_V1 },
  },
  {
    // Speaker-count hints kept with the media (every analysis of it uses them), the engine
    // version of its analysis (to find media an older engine analysed), and, while a
    // re-analysis is owed, the speakers of the analysis it replaces (so that an entity keeps
    // its id where its voice still speaks at the same times).
    // PostgreSQL had it from its first schema.
    version: 2,
    sql: {
      sqlite: `
ALTER TABLE media ADD COLUMN speaker_hints_json TEXT;
ALTER TABLE media ADD COLUMN engine_version TEXT;
ALTER TABLE media ADD COLUMN previous_speakers_json TEXT;
UPDATE media SET engine_version = json_extract(analysis_json, '$.engineVersion') WHERE analysis_json IS NOT NULL;
`,
      pg: '',
    },
  },
  {
    // Every signing secret a workspace has had (hashed), so that a SIGNING_SECRET that was its
    // secret before is never applied again at start (decisions §3).
    // PostgreSQL had it from its first schema.
    version: 3,
    sql: {
      sqlite: `
CREATE TABLE signing_secret_history (
  workspace_id TEXT NOT NULL,
  secret_hash TEXT NOT NULL,
  PRIMARY KEY (workspace_id, secret_hash)
);
`,
      pg: '',
    },
  },
  {
    // Media analysis events (GET /v1/files/:id/events, GET /v1/files/events): every change of a
    // media row takes the next number of one counter, in its own transaction, so that a stream
    // resuming after number n finds every media that changed since (deleted rows never give a
    // number back). Content links: short-lived tokens that let an <audio> element stream one
    // media's bytes without the API key (hashed, like keys; dead with their key or media).
    version: 4,
    sql: {
      sqlite: `
ALTER TABLE media ADD COLUMN changed_seq INTEGER NOT NULL DEFAULT 0;
CREATE INDEX media_changes ON media(workspace_id, changed_seq);
CREATE TABLE counters (
  name TEXT PRIMARY KEY,
  value INTEGER NOT NULL
);
INSERT INTO counters (name, value) VALUES ('media_changes', 0);
CREATE TABLE content_links (
  token_hash TEXT PRIMARY KEY,
  workspace_id TEXT NOT NULL,
  media_id TEXT NOT NULL,
  key_id TEXT NOT NULL,
  expires_at INTEGER NOT NULL
);
CREATE INDEX content_links_media ON content_links(media_id);
CREATE INDEX content_links_expiry ON content_links(expires_at);
`,
      pg: `
ALTER TABLE media ADD COLUMN changed_seq BIGINT NOT NULL DEFAULT 0;
CREATE INDEX media_changes ON media(workspace_id, changed_seq);
CREATE TABLE counters (
  name TEXT PRIMARY KEY,
  value BIGINT NOT NULL
);
INSERT INTO counters (name, value) VALUES ('media_changes', 0);
CREATE TABLE content_links (
  token_hash TEXT PRIMARY KEY,
  workspace_id TEXT NOT NULL,
  media_id TEXT NOT NULL,
  key_id TEXT NOT NULL,
  expires_at BIGINT NOT NULL
);
CREATE INDEX content_links_media ON content_links(media_id);
CREATE INDEX content_links_expiry ON content_links(expires_at);
`,
    },
  },
  {
    // Claims take turns between workspaces: each workspace's last claim, and due tasks found
    // per workspace in run order.
    // PostgreSQL had it from its first schema.
    version: 5,
    sql: {
      sqlite: `
CREATE TABLE queue_turns (
  workspace_id TEXT PRIMARY KEY,
  last_claim INTEGER NOT NULL DEFAULT 0
);
INSERT OR IGNORE INTO queue_turns (workspace_id) SELECT DISTINCT workspace_id FROM tasks;
CREATE INDEX tasks_ws ON tasks(workspace_id, run_at, id);
`,
      pg: '',
    },
  },
  {
    // Per-workspace rate limits an operator set (`rapport workspace limits`, decisions §4):
    // a JSON object of the classes that differ from the configuration's.
    version: 6,
    sql: `ALTER TABLE workspaces ADD COLUMN rate_limits_json TEXT;`,
  },
  {
    // Issue 20, findings 9, 11 and 13.
    // - Quotas an operator set for a workspace (`rapport workspace limits`): a JSON object of
    //   those that differ from the configuration's; and the bytes of its stored media, counted as
    //   media are stored and deleted, so that the storage quota is checked without a sum.
    // - Job events get a number per workspace (ws_seq, what GET /v1/events shows as `id:`), so that
    //   a tenant's ids say nothing of other tenants' volume. Events written before keep their
    //   global id as their number (it grows within each workspace too), so that a client resuming
    //   across the upgrade misses nothing; a workspace's next number goes on from its largest.
    //   job_event_counters holds each workspace's last number and the largest number the
    //   retention sweep removed (a Last-Event-ID below it cannot be resumed).
    // - When each job event was written (ms), for the retention sweep; events written before
    //   count from the upgrade. Indexes for the sweep's oldest-first scans.
    // - Media change numbers (the media event streams' ids) are counted per workspace too, each
    //   workspace's counter starting from the store's, so that a resumed stream misses nothing.
    version: 7,
    sql: {
      sqlite: `
ALTER TABLE workspaces ADD COLUMN quotas_json TEXT;
ALTER TABLE workspaces ADD COLUMN media_bytes INTEGER NOT NULL DEFAULT 0;
UPDATE workspaces SET media_bytes = COALESCE((SELECT SUM(size_bytes) FROM media WHERE media.workspace_id = workspaces.id), 0);
ALTER TABLE job_events ADD COLUMN ws_seq INTEGER;
UPDATE job_events SET ws_seq = id;
CREATE UNIQUE INDEX job_events_ws_seq ON job_events(workspace_id, ws_seq);
CREATE TABLE job_event_counters (
  workspace_id TEXT PRIMARY KEY,
  last_seq INTEGER NOT NULL,
  pruned_through INTEGER NOT NULL DEFAULT 0
);
INSERT INTO job_event_counters (workspace_id, last_seq) SELECT workspace_id, MAX(id) FROM job_events GROUP BY workspace_id;
ALTER TABLE job_events ADD COLUMN created_at INTEGER NOT NULL DEFAULT 0;
UPDATE job_events SET created_at = CAST(unixepoch('subsec') * 1000 AS INTEGER);
CREATE INDEX job_events_age ON job_events(created_at);
CREATE INDEX events_age ON events(created_at);
CREATE INDEX deliveries_event ON webhook_deliveries(event_id);
CREATE INDEX deliveries_age ON webhook_deliveries(updated_at);
INSERT INTO counters (name, value) SELECT 'media_changes:' || id, (SELECT value FROM counters WHERE name = 'media_changes') FROM workspaces;
`,
      pg: `
ALTER TABLE workspaces ADD COLUMN quotas_json TEXT;
ALTER TABLE workspaces ADD COLUMN media_bytes BIGINT NOT NULL DEFAULT 0;
UPDATE workspaces SET media_bytes = COALESCE((SELECT SUM(size_bytes) FROM media WHERE media.workspace_id = workspaces.id), 0);
ALTER TABLE job_events ADD COLUMN ws_seq BIGINT;
UPDATE job_events SET ws_seq = id;
CREATE UNIQUE INDEX job_events_ws_seq ON job_events(workspace_id, ws_seq);
CREATE TABLE job_event_counters (
  workspace_id TEXT PRIMARY KEY,
  last_seq BIGINT NOT NULL,
  pruned_through BIGINT NOT NULL DEFAULT 0
);
INSERT INTO job_event_counters (workspace_id, last_seq) SELECT workspace_id, MAX(id) FROM job_events GROUP BY workspace_id;
ALTER TABLE job_events ADD COLUMN created_at BIGINT NOT NULL DEFAULT 0;
UPDATE job_events SET created_at = (EXTRACT(EPOCH FROM clock_timestamp()) * 1000)::bigint;
ALTER TABLE job_events ALTER COLUMN created_at SET DEFAULT (EXTRACT(EPOCH FROM clock_timestamp()) * 1000)::bigint;
CREATE INDEX job_events_age ON job_events(created_at);
CREATE INDEX events_age ON events(created_at);
CREATE INDEX deliveries_event ON webhook_deliveries(event_id);
CREATE INDEX deliveries_age ON webhook_deliveries(updated_at);
INSERT INTO counters (name, value) SELECT 'media_changes:' || id, (SELECT value FROM counters WHERE name = 'media_changes') FROM workspaces;
`,
    },
  },
  {
    // The job events' first workspace index, (workspace_id, id), served the global event ids;
    // since version 7 every read by workspace goes by job_events_ws_seq, and the index was only
    // kept up to date on every event written.
    version: 8,
    sql: `DROP INDEX IF EXISTS job_events_ws;`,
  },
  {
    // Keys the service keeps for itself (StoreBackend.serviceKey): the list cursors'
    // (store/cursor.ts).
    version: 9,
    sql: `CREATE TABLE service_keys (name TEXT PRIMARY KEY, value TEXT NOT NULL);`,
  },
  {
    // What the media resource shows of a media's analysis and transcript (files/media-summary.ts),
    // so that lists, gets and streams never read those columns; rows written before get theirs
    // when first read. And the table is written again with the transcript and the analysis last:
    // SQLite lays a row's columns out in order, so reading any column after a large one follows
    // its chain of overflow pages (a list of 100 media with 1 MB transcripts took 270 ms for the
    // small columns alone).
    version: 10,
    sql: {
      sqlite: `
CREATE TABLE media_v10 (
  id TEXT PRIMARY KEY,
  workspace_id TEXT NOT NULL,
  kind TEXT NOT NULL,
  filename TEXT NOT NULL,
  content_type TEXT NOT NULL,
  size_bytes INTEGER NOT NULL,
  sha256 TEXT NOT NULL,
  duration_sec REAL,
  label TEXT,
  storage_path TEXT NOT NULL,
  analysis_status TEXT NOT NULL,
  analysis_error TEXT,
  analysis_stage TEXT,
  analysis_progress REAL NOT NULL DEFAULT 0,
  created_at TEXT NOT NULL,
  seq INTEGER NOT NULL,
  speaker_hints_json TEXT,
  engine_version TEXT,
  changed_seq INTEGER NOT NULL DEFAULT 0,
  summary_json TEXT,
  previous_speakers_json TEXT,
  transcript_json TEXT,
  analysis_json TEXT
);
INSERT INTO media_v10 (id, workspace_id, kind, filename, content_type, size_bytes, sha256, duration_sec, label, storage_path, analysis_status, analysis_error,
  analysis_stage, analysis_progress, created_at, seq, speaker_hints_json, engine_version, changed_seq, previous_speakers_json, transcript_json, analysis_json) SELECT id, workspace_id, kind, filename, content_type, size_bytes, sha256, duration_sec, label, storage_path, analysis_status, analysis_error,
  analysis_stage, analysis_progress, created_at, seq, speaker_hints_json, engine_version, changed_seq, previous_speakers_json, transcript_json, analysis_json FROM media;
DROP TABLE media;
ALTER TABLE media_v10 RENAME TO media;
CREATE INDEX media_ws ON media(workspace_id, seq DESC);
CREATE INDEX media_changes ON media(workspace_id, changed_seq);
`,
      pg: `ALTER TABLE media ADD COLUMN summary_json TEXT;`,
    },
  },
  {
    // A second rotated-out signing secret with its own grace (issue 32, finding 14): rotating
    // twice within 24 h ended the first one's grace at once.
    version: 11,
    sql: {
      sqlite: `
ALTER TABLE workspaces ADD COLUMN older_signing_secret TEXT;
ALTER TABLE workspaces ADD COLUMN older_secret_expires_at INTEGER;
`,
      pg: `
ALTER TABLE workspaces ADD COLUMN older_signing_secret TEXT;
ALTER TABLE workspaces ADD COLUMN older_secret_expires_at BIGINT;
`,
    },
  },
  {
    // The destination (URL origin) of each delivery, which the dispatcher's limits are counted
    // by: its query of due deliveries leaves out saturated destinations, not URLs (issue 41,
    // finding 1: with a distinct URL per job to one dead receiver, each cost a candidate). Rows
    // written before have none and count by their URL.
    version: 12,
    sql: {
      sqlite: 'ALTER TABLE webhook_deliveries ADD COLUMN destination TEXT;',
      pg: 'ALTER TABLE webhook_deliveries ADD COLUMN IF NOT EXISTS destination TEXT;',
    },
  },
  {
    // Media by their bytes within a workspace (decisions §18): an upload of bytes the workspace
    // already has answers the existing media, found by this index instead of a scan of the
    // workspace's media; seq last so that the oldest of them is read from the index too (without it
    // both engines took media_ws and filtered every media of the workspace). Not unique: workspaces
    // that stored the same bytes twice before this rule keep both.
    version: 13,
    sql: {
      sqlite: 'CREATE INDEX media_content ON media(workspace_id, sha256, seq);',
      pg: 'CREATE INDEX IF NOT EXISTS media_content ON media(workspace_id, sha256, seq);',
    },
  },
  {
    // An entity's automatic name ("Speaker 2 in interview.wav"), fixed when it is first given
    // (issue 40 item 7): derived from its first appearance on every read, it changed when a
    // re-analysis numbered the speakers differently. Entities made before get it at their next
    // re-analysis, from the appearance they had until then.
    version: 14,
    sql: {
      sqlite: 'ALTER TABLE entities ADD COLUMN auto_name TEXT;',
      pg: 'ALTER TABLE entities ADD COLUMN IF NOT EXISTS auto_name TEXT;',
    },
  },
];
