// The first schema of each engine (version 1 of store/migrations.ts): what each store was created
// with before the two lists became one (issue 34). The PostgreSQL one already held what the
// embedded store added in versions 2, 3 and 5, so those versions change nothing there. Times in
// milliseconds are BIGINT on PostgreSQL, and ordering numbers come from one sequence shared by
// every process (rapport_seq; the embedded store counts them in its single process). Never edit
// what has shipped.
export const SQLITE_V1 = `
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
`;

export const PG_V1 = `
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
`;
