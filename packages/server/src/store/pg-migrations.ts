// Schema of the PostgreSQL store, as an ordered list of migrations (run by pg.ts under an
// advisory lock, each in its own transaction, recorded in schema_migrations). It mirrors the
// embedded store's schema after its migrations (migrations.ts), with PostgreSQL's types: times
// in milliseconds are BIGINT, ordering numbers come from one sequence shared by every process
// (the embedded store counts them in its single process). Never edit a migration that has
// shipped; add a new one.
export const PG_MIGRATIONS: { version: number; sql: string }[] = [
  {
    version: 1,
    sql: `
CREATE SEQUENCE rapport_seq;
CREATE TABLE workspaces (
  id TEXT PRIMARY KEY,
  name TEXT NOT NULL,
  signing_secret TEXT NOT NULL,
  previous_signing_secret TEXT,
  previous_secret_expires_at BIGINT,
  balance BIGINT NOT NULL DEFAULT 0,
  reserved BIGINT NOT NULL DEFAULT 0,
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
CREATE TABLE signing_secret_history (
  workspace_id TEXT NOT NULL,
  secret_hash TEXT NOT NULL,
  PRIMARY KEY (workspace_id, secret_hash)
);
CREATE TABLE media (
  id TEXT PRIMARY KEY,
  workspace_id TEXT NOT NULL,
  kind TEXT NOT NULL,
  filename TEXT NOT NULL,
  content_type TEXT NOT NULL,
  size_bytes BIGINT NOT NULL,
  sha256 TEXT NOT NULL,
  duration_sec DOUBLE PRECISION,
  label TEXT,
  storage_path TEXT NOT NULL,
  transcript_json TEXT,
  analysis_status TEXT NOT NULL,
  analysis_error TEXT,
  analysis_json TEXT,
  analysis_stage TEXT,
  analysis_progress DOUBLE PRECISION NOT NULL DEFAULT 0,
  speaker_hints_json TEXT,
  engine_version TEXT,
  previous_speakers_json TEXT,
  created_at TEXT NOT NULL,
  seq BIGINT NOT NULL DEFAULT nextval('rapport_seq')
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
  seq BIGINT NOT NULL DEFAULT nextval('rapport_seq')
);
CREATE INDEX entities_ws ON entities(workspace_id, seq DESC);
CREATE TABLE appearances (
  entity_id TEXT NOT NULL,
  media_id TEXT NOT NULL,
  speaker_index INTEGER NOT NULL,
  speech_sec DOUBLE PRECISION NOT NULL,
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
  progress DOUBLE PRECISION NOT NULL DEFAULT 0,
  label TEXT,
  request_json TEXT NOT NULL,
  created_at TEXT NOT NULL,
  started_at TEXT,
  finished_at TEXT,
  result_id TEXT,
  error_json TEXT,
  cost BIGINT NOT NULL DEFAULT 0,
  event_seq INTEGER NOT NULL DEFAULT 0,
  seq BIGINT NOT NULL DEFAULT nextval('rapport_seq')
);
CREATE INDEX jobs_ws ON jobs(workspace_id, seq DESC);
CREATE INDEX jobs_active ON jobs(workspace_id) WHERE status IN ('queued', 'running');
CREATE INDEX jobs_recent ON jobs(seq DESC) WHERE status = 'succeeded';
CREATE TABLE job_events (
  id BIGSERIAL PRIMARY KEY,
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
  id BIGSERIAL PRIMARY KEY,
  kind TEXT NOT NULL,
  ref_id TEXT NOT NULL,
  workspace_id TEXT NOT NULL,
  state TEXT NOT NULL,
  run_at BIGINT NOT NULL,
  attempts INTEGER NOT NULL DEFAULT 0,
  max_attempts INTEGER NOT NULL,
  lease_owner TEXT,
  lease_expires_at BIGINT,
  last_error TEXT
);
CREATE INDEX tasks_ws ON tasks(workspace_id, run_at, id);
CREATE INDEX tasks_ref ON tasks(kind, ref_id);
CREATE TABLE queue_turns (
  workspace_id TEXT PRIMARY KEY,
  last_claim BIGINT NOT NULL DEFAULT 0
);
CREATE INDEX queue_turns_order ON queue_turns(last_claim, workspace_id);
CREATE TABLE idempotency_keys (
  workspace_id TEXT NOT NULL,
  route TEXT NOT NULL,
  key TEXT NOT NULL,
  request_hash TEXT NOT NULL,
  state TEXT NOT NULL,
  status_code INTEGER,
  response_json TEXT,
  created_at BIGINT NOT NULL,
  PRIMARY KEY (workspace_id, route, key)
);
CREATE INDEX idempotency_age ON idempotency_keys(created_at);
CREATE TABLE credit_transactions (
  id TEXT PRIMARY KEY,
  workspace_id TEXT NOT NULL,
  kind TEXT NOT NULL,
  amount BIGINT NOT NULL,
  balance_after BIGINT NOT NULL,
  job_id TEXT,
  media_id TEXT,
  created_at TEXT NOT NULL,
  seq BIGINT NOT NULL DEFAULT nextval('rapport_seq')
);
CREATE INDEX credit_tx_ws ON credit_transactions(workspace_id, seq DESC);
CREATE TABLE feedback (
  id TEXT PRIMARY KEY,
  workspace_id TEXT NOT NULL,
  result_id TEXT NOT NULL,
  rating INTEGER NOT NULL,
  comment TEXT,
  created_at TEXT NOT NULL,
  seq BIGINT NOT NULL DEFAULT nextval('rapport_seq')
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
  next_attempt_at BIGINT,
  lease_expires_at BIGINT,
  lease_owner TEXT,
  last_status_code INTEGER,
  last_error TEXT,
  first_attempt_at BIGINT,
  single_attempt INTEGER NOT NULL DEFAULT 0,
  redeliver_requested INTEGER NOT NULL DEFAULT 0,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL,
  seq BIGINT NOT NULL DEFAULT nextval('rapport_seq')
);
CREATE INDEX deliveries_due ON webhook_deliveries(status, next_attempt_at, seq);
CREATE INDEX deliveries_ws ON webhook_deliveries(workspace_id, seq DESC);
CREATE INDEX deliveries_job ON webhook_deliveries(job_id);
CREATE TABLE delivery_attempts (
  delivery_id TEXT NOT NULL,
  attempt INTEGER NOT NULL,
  at TEXT NOT NULL,
  status_code INTEGER,
  duration_ms BIGINT NOT NULL,
  error TEXT,
  outcome TEXT NOT NULL DEFAULT 'in_flight',
  PRIMARY KEY (delivery_id, attempt)
);
`,
  },
  {
    // Per-workspace rate limits an operator set (`rapport workspace limits`, decisions §4).
    version: 2,
    sql: 'ALTER TABLE workspaces ADD COLUMN rate_limits_json TEXT;',
  },
  {
    // Media analysis events and content links (the embedded store's migration 4, same rules):
    // every change of a media row takes the next number of one counter row, updated inside the
    // change's transaction. Its row lock is held until commit, so the numbers grow in commit
    // order across processes (a sequence would not: nextval is handed out before commit).
    version: 3,
    sql: `
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
  {
    // Quotas, per-workspace job event numbers and retention: the embedded store's migration 7,
    // same rules. The per-workspace event counter's row is updated in the transaction that
    // writes the event, and its row lock is held until commit, so a workspace's numbers commit in
    // order across processes (as the advisory lock did for the global ids).
    version: 4,
    sql: `
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
  {
    // The job events' first workspace index, (workspace_id, id), served the global event ids;
    // since version 4 every read by workspace goes by job_events_ws_seq, and the index was only
    // kept up to date on every event written. The embedded store's migration 8.
    version: 5,
    sql: `DROP INDEX IF EXISTS job_events_ws;`,
  },
  {
    // Keys the service keeps for itself, the same for every process (StoreBackend.serviceKey):
    // the list cursors' (store/cursor.ts). The embedded store's migration 9.
    version: 6,
    sql: `CREATE TABLE service_keys (name TEXT PRIMARY KEY, value TEXT NOT NULL);`,
  },
  {
    // What the media resource shows of a media's analysis and transcript (files/media-summary.ts),
    // so that lists, gets and streams never read those columns. The embedded store's migration 10.
    version: 7,
    sql: `ALTER TABLE media ADD COLUMN summary_json TEXT;`,
  },
  {
    // A second rotated-out signing secret with its own grace (issue 32, finding 14). The
    // embedded store's migration 11.
    version: 8,
    sql: `
ALTER TABLE workspaces ADD COLUMN older_signing_secret TEXT;
ALTER TABLE workspaces ADD COLUMN older_secret_expires_at BIGINT;
`,
  },
];
