// Configuration is read once at start from the environment (and an optional JSON file named by
// CONFIG_FILE), validated as a whole, and then injected: no other module reads process.env.
// Every bad value is named in one error, so an operator fixes them all in one go (immich does
// the same with its environment schema).
import { readFileSync } from 'node:fs';
import path from 'node:path';

export interface RateLimitConfig {
  upload: number;
  reportCreation: number;
  jobStatus: number;
  files: number;
  entities: number;
  credits: number;
  default: number;
}

/** A class of routes that share one rate limit. */
export type RateClass = keyof RateLimitConfig;

export interface Config {
  port: number;
  host: string;
  dataDir: string;
  /** Where uploaded media (`media/`) and their temporary files (`tmp/`) live; one file system that every process mounts. */
  mediaDir: string;
  databaseUrl: string | null;
  /** The PostgreSQL schema of the tables (created when missing); lets deployments share a database. */
  databaseSchema: string;
  /**
   * PostgreSQL: the longest wait for a connection (a new one, or a free one of the pool) and for a
   * statement's answer; past it the request is answered 503 (a store that hangs).
   */
  databaseTimeoutSec: number;
  redisUrl: string | null;
  /** With Redis carrying job events, an event stream told nothing for this long reads the store (a lost publish). */
  eventCatchUpSec: number;
  role: 'all' | 'api' | 'worker';
  workerConcurrency: number;
  maxUploadBytes: number;
  /** Media longer than this is refused at upload when declared, and its decoding stops past it (default 4 h). */
  maxMediaSec: number;
  /** Memory limit of one media analysis (its process and decoder, resident; and its JS heap). */
  analysisMemoryMb: number;
  /** Added to the service's nice value for analysis processes, so the API comes first. */
  analysisNice: number;
  /**
   * How analysis processes are scheduled on Linux: `idle`, under SCHED_IDLE (a core only when no
   * normal thread wants it), or `normal`, the nice value alone, for hosts whose other work keeps
   * every core busy, where idle analyses would wait for as long as it does.
   */
  analysisScheduling: AnalysisScheduling;
  /** While the API is busy, analyses are paused but for this percentage of the time (100: never paused). */
  analysisMinSharePct: number;
  /** Analyses of one workspace that one analysis process may run before it ends (1: a process for each). */
  analysisProcessReuse: number;
  /** An ONNX speaker embedding network (with its JSON beside it) used instead of the built-in one; checked at start (serve.ts). */
  speakerEmbeddingModel: string | null;
  /** SEGMENTATION_MODEL: the deployment's ONNX speaker segmentation network (with its JSON beside it). */
  segmentationModel: string | null;
  /** A connection that sends and receives nothing for this long is closed (a stalled request or upload). */
  requestIdleTimeoutSec: number;
  /** Headers must arrive within this long of the connection's first byte. */
  headersTimeoutSec: number;
  serviceApiKey: string | null;
  signingSecret: string | null;
  webhookAllowPrivate: boolean;
  webhookRequireHttps: boolean;
  initialCredits: number;
  logLevel: 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';
  /** How long a worker's lease on a task lasts without renewal; a dead worker's task is retaken after it. */
  jobLeaseSec: number;
  /** A job that runs longer than this fails with `timed_out`. */
  jobTimeoutSec: number;
  rateLimits: RateLimitConfig;
  /** Job events, webhook events, ended deliveries and their attempts are deleted this many days after they were written (or ended). */
  retentionDays: number;
  /** How often processes with the worker role remove stored media files that no media row claims, and crashed uploads' temporary files (store/orphan-sweeper.ts). */
  orphanSweepSec: number;
  /** Active API keys a workspace may hold (an operator may set another number per workspace). */
  maxApiKeys: number;
  /** Bytes of stored media a workspace may hold (an operator may set another number per workspace). */
  mediaQuotaBytes: number;
  /** Uploads are refused (507) while the media directory's file system has less free space than this. */
  minFreeDiskBytes: number;
  /** How often the keys of open event streams are authenticated again (a key revoked by another process). */
  streamRecheckSec: number;
  /** The bearer token `GET /metrics` needs; null: /metrics is 404 (decisions §12). */
  metricsToken: string | null;
}

export class ConfigError extends Error {
  readonly problems: string[];
  constructor(problems: string[]) {
    super(`invalid configuration:\n  - ${problems.join('\n  - ')}`);
    this.name = 'ConfigError';
    this.problems = problems;
  }
}

type Env = Record<string, string | undefined>;

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
const ROLES = ['all', 'api', 'worker'] as const;
const ANALYSIS_SCHEDULING = ['idle', 'normal'] as const;
export type AnalysisScheduling = (typeof ANALYSIS_SCHEDULING)[number];

export function loadConfig(env: Env = process.env): Config {
  const merged: Env = { ...readConfigFile(env.CONFIG_FILE), ...env };
  const problems: string[] = [];

  const int = (name: string, fallback: number, min: number, max = Number.MAX_SAFE_INTEGER): number => {
    const raw = merged[name];
    if (raw === undefined || raw === '') return fallback;
    const n = Number(raw);
    if (!Number.isInteger(n) || n < min || n > max) {
      problems.push(`${name} must be an integer from ${min} to ${max}, got "${raw}"`);
      return fallback;
    }
    return n;
  };
  const bool = (name: string): boolean => {
    const raw = merged[name];
    if (raw === undefined || raw === '') return false;
    if (raw === 'true' || raw === '1') return true;
    if (raw === 'false' || raw === '0') return false;
    problems.push(`${name} must be true or false, got "${raw}"`);
    return false;
  };
  const oneOf = <T extends string>(name: string, allowed: readonly T[], fallback: T): T => {
    const raw = merged[name];
    if (raw === undefined || raw === '') return fallback;
    if ((allowed as readonly string[]).includes(raw)) return raw as T;
    problems.push(`${name} must be one of ${allowed.join(', ')}, got "${raw}"`);
    return fallback;
  };
  const optional = (name: string): string | null => {
    const raw = merged[name];
    return raw === undefined || raw === '' ? null : raw;
  };

  const serviceApiKey = optional('SERVICE_API_KEY');
  if (serviceApiKey !== null && !/^rk_[A-Za-z0-9_-]{32,}$/.test(serviceApiKey)) {
    problems.push('SERVICE_API_KEY must look like rk_ followed by 32 or more letters, digits, _ or -');
  }
  const signingSecret = optional('SIGNING_SECRET');
  if (signingSecret !== null && !/^whsec_[A-Za-z0-9_+/=-]{16,}$/.test(signingSecret)) {
    problems.push('SIGNING_SECRET must look like whsec_ followed by 16 or more characters');
  }
  const metricsToken = optional('METRICS_TOKEN');
  if (metricsToken !== null && !/^[\x21-\x7e]{16,512}$/.test(metricsToken)) {
    problems.push('METRICS_TOKEN must be 16 to 512 printable ASCII characters without spaces');
  }
  const databaseUrl = optional('DATABASE_URL');
  if (databaseUrl !== null && !/^postgres(ql)?:\/\//.test(databaseUrl)) {
    problems.push('DATABASE_URL must be a PostgreSQL connection URL (postgres://user@host:port/database)');
  }
  const speakerEmbeddingModel = optional('SPEAKER_EMBEDDING_MODEL');
  const segmentationModel = optional('SEGMENTATION_MODEL');
  const databaseSchema = merged.DATABASE_SCHEMA || 'public';
  if (!/^[a-z_][a-z0-9_]{0,62}$/.test(databaseSchema)) {
    problems.push(`DATABASE_SCHEMA must be a lower-case SQL name (letters, digits, _), got "${databaseSchema}"`);
  }

  const config: Config = {
    port: int('PORT', 8080, 0, 65535),
    host: merged.HOST || '127.0.0.1',
    dataDir: path.resolve(merged.DATA_DIR || './data'),
    mediaDir: path.resolve(merged.MEDIA_DIR || merged.DATA_DIR || './data'),
    databaseUrl,
    databaseSchema,
    databaseTimeoutSec: int('DATABASE_TIMEOUT_SEC', 5, 1, 300),
    redisUrl: optional('REDIS_URL'),
    eventCatchUpSec: int('EVENT_CATCH_UP_SEC', 5, 1, 300),
    role: oneOf('ROLE', ROLES, 'all'),
    workerConcurrency: int('WORKER_CONCURRENCY', 2, 1, 64),
    maxUploadBytes: int('MAX_UPLOAD_BYTES', 2 * 1024 ** 3, 1),
    maxMediaSec: int('MAX_MEDIA_SEC', 4 * 3600, 1, 24 * 3600),
    analysisMemoryMb: int('ANALYSIS_MEMORY_MB', 3072, 256, 65536),
    analysisNice: int('ANALYSIS_NICE', 10, 0, 19),
    analysisScheduling: oneOf('ANALYSIS_SCHEDULING', ANALYSIS_SCHEDULING, 'idle'),
    analysisMinSharePct: int('ANALYSIS_MIN_SHARE_PCT', 20, 1, 100),
    analysisProcessReuse: int('ANALYSIS_PROCESS_REUSE', 20, 1, 1000),
    speakerEmbeddingModel: speakerEmbeddingModel === null ? null : path.resolve(speakerEmbeddingModel),
    segmentationModel: segmentationModel === null ? null : path.resolve(segmentationModel),
    requestIdleTimeoutSec: int('REQUEST_IDLE_TIMEOUT_SEC', 60, 1, 3600),
    headersTimeoutSec: int('HEADERS_TIMEOUT_SEC', 20, 1, 3600),
    serviceApiKey,
    signingSecret,
    webhookAllowPrivate: bool('WEBHOOK_ALLOW_PRIVATE'),
    webhookRequireHttps: bool('WEBHOOK_REQUIRE_HTTPS'),
    initialCredits: int('INITIAL_CREDITS', 1000, 0),
    logLevel: oneOf('LOG_LEVEL', LOG_LEVELS, 'info'),
    jobLeaseSec: int('JOB_LEASE_SEC', 30, 1, 3600),
    jobTimeoutSec: int('JOB_TIMEOUT_SEC', 3600, 1),
    retentionDays: int('RETENTION_DAYS', 30, 1, 3650),
    // Hourly: orphans come only from a crash mid-upload, and each sweep lists the whole media
    // folder; at least a minute, at most a week.
    orphanSweepSec: int('ORPHAN_SWEEP_SEC', 3600, 60, 7 * 24 * 3600),
    maxApiKeys: int('MAX_API_KEYS', 20, 1, 10_000),
    mediaQuotaBytes: int('MEDIA_QUOTA_BYTES', 50 * 1024 ** 3, 1),
    minFreeDiskBytes: int('MIN_FREE_DISK_BYTES', 1024 ** 3, 0),
    metricsToken,
    streamRecheckSec: int('STREAM_RECHECK_SEC', 15, 1, 3600),
    rateLimits: {
      upload: int('RATE_LIMIT_UPLOAD', 10, 1),
      reportCreation: int('RATE_LIMIT_REPORT_CREATION', 20, 1),
      jobStatus: int('RATE_LIMIT_JOB_STATUS', 60, 1),
      files: int('RATE_LIMIT_FILES', 30, 1),
      entities: int('RATE_LIMIT_ENTITIES', 30, 1),
      credits: int('RATE_LIMIT_CREDITS', 100, 1),
      default: int('RATE_LIMIT_DEFAULT', 100, 1),
    },
  };
  if (problems.length > 0) throw new ConfigError(problems);
  return Object.freeze(config);
}

function readConfigFile(file: string | undefined): Env {
  if (!file) return {};
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(file, 'utf8'));
  } catch (err) {
    throw new ConfigError([`CONFIG_FILE ${file} could not be read as JSON: ${(err as Error).message}`]);
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    throw new ConfigError([`CONFIG_FILE ${file} must hold a JSON object of NAME: value`]);
  }
  return Object.fromEntries(Object.entries(parsed).map(([k, v]) => [k, String(v)]));
}
