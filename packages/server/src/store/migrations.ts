// Schema of the embedded store, as an ordered list of migrations. Each runs once, in its own
// transaction, and is recorded in schema_migrations; never edit a migration that has shipped,
// add a new one.
export const MIGRATIONS: { version: number; sql: string }[] = [
  {
    version: 1,
    sql: `
CREATE TABLE workspaces (
  id TEXT PRIMARY KEY,
  name TEXT NOT NULL,
  signing_secret TEXT NOT NULL,
  previous_signing_secret TEXT,
  previous_secret_expires_at INTEGER,
  balance INTEGER NOT NULL DEFAULT 0,
  reserved INTEGER NOT NULL DEFAULT 0,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL
);
CREATE TABLE api_keys (
  id TEXT PRIMARY KEY,
  workspace_id TEXT NOT NULL REFERENCES workspaces(id),
  hash TEXT NOT NULL UNIQUE,
  hint TEXT NOT NULL,
  name TEXT,
  scope TEXT NOT NULL,
  created_at TEXT NOT NULL,
  revoked_at TEXT
);
CREATE TABLE media (
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
  transcript_json TEXT,
  analysis_status TEXT NOT NULL,
  analysis_error TEXT,
  analysis_json TEXT,
  analysis_stage TEXT,
  analysis_progress REAL NOT NULL DEFAULT 0,
  created_at TEXT NOT NULL,
  seq INTEGER NOT NULL
);
CREATE INDEX media_ws ON media(workspace_id, seq DESC);
CREATE TABLE entities (
  id TEXT PRIMARY KEY,
  workspace_id TEXT NOT NULL,
  label TEXT,
  tags_json TEXT NOT NULL DEFAULT '[]',
  voiceprint_json TEXT,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL,
  seq INTEGER NOT NULL
);
CREATE INDEX entities_ws ON entities(workspace_id, seq DESC);
CREATE TABLE appearances (
  entity_id TEXT NOT NULL,
  media_id TEXT NOT NULL,
  speaker_index INTEGER NOT NULL,
  speech_sec REAL NOT NULL,
  workspace_id TEXT NOT NULL,
  PRIMARY KEY (media_id, speaker_index)
);
CREATE INDEX appearances_entity ON appearances(entity_id);
CREATE TABLE jobs (
  id TEXT PRIMARY KEY,
  workspace_id TEXT NOT NULL,
  type TEXT NOT NULL,
  status TEXT NOT NULL,
  stage TEXT NOT NULL,
  progress REAL NOT NULL DEFAULT 0,
  label TEXT,
  request_json TEXT NOT NULL,
  created_at TEXT NOT NULL,
  started_at TEXT,
  finished_at TEXT,
  result_id TEXT,
  error_json TEXT,
  cost INTEGER NOT NULL DEFAULT 0,
  event_seq INTEGER NOT NULL DEFAULT 0,
  seq INTEGER NOT NULL
);
CREATE INDEX jobs_ws ON jobs(workspace_id, seq DESC);
CREATE TABLE job_events (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  job_id TEXT NOT NULL,
  workspace_id TEXT NOT NULL,
  seq INTEGER NOT NULL,
  event TEXT NOT NULL,
  data_json TEXT NOT NULL,
  UNIQUE (job_id, seq)
);
CREATE INDEX job_events_ws ON job_events(workspace_id, id);
CREATE TABLE results (
  id TEXT PRIMARY KEY,
  workspace_id TEXT NOT NULL,
  job_id TEXT NOT NULL UNIQUE,
  kind TEXT NOT NULL,
  payload_json TEXT NOT NULL,
  evidence_json TEXT,
  created_at TEXT NOT NULL
);
CREATE TABLE tasks (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  kind TEXT NOT NULL,
  ref_id TEXT NOT NULL,
  workspace_id TEXT NOT NULL,
  state TEXT NOT NULL,
  run_at INTEGER NOT NULL,
  attempts INTEGER NOT NULL DEFAULT 0,
  max_attempts INTEGER NOT NULL,
  lease_owner TEXT,
  lease_expires_at INTEGER,
  last_error TEXT
);
CREATE INDEX tasks_ready ON tasks(state, run_at);
CREATE TABLE idempotency_keys (
  workspace_id TEXT NOT NULL,
  route TEXT NOT NULL,
  key TEXT NOT NULL,
  request_hash TEXT NOT NULL,
  state TEXT NOT NULL,
  status_code INTEGER,
  response_json TEXT,
  created_at INTEGER NOT NULL,
  PRIMARY KEY (workspace_id, route, key)
);
CREATE TABLE credit_transactions (
  id TEXT PRIMARY KEY,
  workspace_id TEXT NOT NULL,
  kind TEXT NOT NULL,
  amount INTEGER NOT NULL,
  balance_after INTEGER NOT NULL,
  job_id TEXT,
  media_id TEXT,
  created_at TEXT NOT NULL,
  seq INTEGER NOT NULL
);
CREATE INDEX credit_tx_ws ON credit_transactions(workspace_id, seq DESC);
CREATE TABLE feedback (
  id TEXT PRIMARY KEY,
  workspace_id TEXT NOT NULL,
  result_id TEXT NOT NULL,
  rating INTEGER NOT NULL,
  comment TEXT,
  created_at TEXT NOT NULL,
  seq INTEGER NOT NULL
);
CREATE INDEX feedback_ws ON feedback(workspace_id, seq DESC);
CREATE TABLE events (
  id TEXT PRIMARY KEY,
  workspace_id TEXT NOT NULL,
  job_id TEXT NOT NULL,
  type TEXT NOT NULL,
  body TEXT NOT NULL,
  created_at TEXT NOT NULL
);
CREATE TABLE webhook_deliveries (
  id TEXT PRIMARY KEY,
  workspace_id TEXT NOT NULL,
  event_id TEXT NOT NULL,
  job_id TEXT NOT NULL,
  url TEXT NOT NULL,
  headers_json TEXT NOT NULL,
  status TEXT NOT NULL,
  attempts INTEGER NOT NULL DEFAULT 0,
  next_attempt_at INTEGER,
  lease_expires_at INTEGER,
  lease_owner TEXT,
  last_status_code INTEGER,
  last_error TEXT,
  first_attempt_at INTEGER,
  single_attempt INTEGER NOT NULL DEFAULT 0,
  redeliver_requested INTEGER NOT NULL DEFAULT 0,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL,
  seq INTEGER NOT NULL
);
CREATE INDEX deliveries_due ON webhook_deliveries(status, next_attempt_at, seq);
CREATE INDEX deliveries_ws ON webhook_deliveries(workspace_id, seq DESC);
CREATE INDEX deliveries_job ON webhook_deliveries(job_id);
CREATE TABLE delivery_attempts (
  delivery_id TEXT NOT NULL,
  attempt INTEGER NOT NULL,
  at TEXT NOT NULL,
  status_code INTEGER,
  duration_ms INTEGER NOT NULL,
  error TEXT,
  outcome TEXT NOT NULL DEFAULT 'in_flight',
  PRIMARY KEY (delivery_id, attempt)
);
`,
  },
  {
    // Speaker-count hints kept with the media (every analysis of it uses them), the engine
    // version of its analysis (to find media an older engine analysed), and, while a
    // re-analysis is owed, the speakers of the analysis it replaces (so that an entity keeps
    // its id where its voice still speaks at the same times).
    version: 2,
    sql: `
ALTER TABLE media ADD COLUMN speaker_hints_json TEXT;
ALTER TABLE media ADD COLUMN engine_version TEXT;
ALTER TABLE media ADD COLUMN previous_speakers_json TEXT;
UPDATE media SET engine_version = json_extract(analysis_json, '$.engineVersion') WHERE analysis_json IS NOT NULL;
`,
  },
  {
    // Every signing secret a workspace has had (hashed), so that a SIGNING_SECRET that was its
    // secret before is never applied again at start (decisions §3).
    version: 3,
    sql: `
CREATE TABLE signing_secret_history (
  workspace_id TEXT NOT NULL,
  secret_hash TEXT NOT NULL,
  PRIMARY KEY (workspace_id, secret_hash)
);
`,
  },
  {
    // Media analysis events (GET /v1/files/:id/events, GET /v1/files/events): every change of a
    // media row takes the next number of one counter, in its own transaction, so that a stream
    // resuming after number n finds every media that changed since (deleted rows never give a
    // number back). Content links: short-lived tokens that let an <audio> element stream one
    // media's bytes without the API key (hashed, like keys; dead with their key or media).
    version: 4,
    sql: `
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
  },
  {
    // Claims take turns between workspaces: each workspace's last claim, and due tasks found
    // per workspace in run order.
    version: 5,
    sql: `
CREATE TABLE queue_turns (
  workspace_id TEXT PRIMARY KEY,
  last_claim INTEGER NOT NULL DEFAULT 0
);
INSERT OR IGNORE INTO queue_turns (workspace_id) SELECT DISTINCT workspace_id FROM tasks;
CREATE INDEX tasks_ws ON tasks(workspace_id, run_at, id);
`,
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
    sql: `
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
    sql: `
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
  },
  {
    // A second rotated-out signing secret with its own grace (issue 32, finding 14): rotating
    // twice within 24 h ended the first one's grace at once.
    version: 11,
    sql: `
ALTER TABLE workspaces ADD COLUMN older_signing_secret TEXT;
ALTER TABLE workspaces ADD COLUMN older_secret_expires_at INTEGER;
`,
  },
];
