// Configuration (decisions §13): defaults, and every bad value named in one ConfigError.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { ConfigError, loadConfig } from '../src/config.ts';
import { tempDir } from './helpers.ts';

function problemsOf(env: Record<string, string>): string[] {
  try {
    loadConfig(env);
  } catch (err) {
    assert.ok(err instanceof ConfigError, String(err));
    return err.problems;
  }
  assert.fail('expected a ConfigError');
}

describe('loadConfig', () => {
  it('has the documented defaults', () => {
    const c = loadConfig({});
    assert.equal(c.port, 8080);
    assert.equal(c.host, '127.0.0.1');
    assert.equal(c.dataDir, path.resolve('./data'));
    assert.equal(c.databaseUrl, null);
    assert.equal(c.role, 'all');
    assert.equal(c.maxUploadBytes, 2 * 1024 ** 3);
    assert.equal(c.initialCredits, 1000);
    assert.equal(c.webhookAllowPrivate, false);
    assert.equal(c.webhookRequireHttps, false);
    assert.equal(c.eventCatchUpSec, 5);
    assert.equal(c.orphanSweepSec, 3600);
    assert.equal(c.analysisScheduling, 'idle');
    assert.deepEqual(c.rateLimits, { upload: 10, reportCreation: 20, jobStatus: 60, files: 30, entities: 30, credits: 100, default: 100 });
    assert.ok(Object.isFrozen(c));
  });

  it('reads every variable', () => {
    const c = loadConfig({
      PORT: '9000', HOST: '0.0.0.0', DATA_DIR: '/tmp/x', ROLE: 'worker', WORKER_CONCURRENCY: '4', MAX_UPLOAD_BYTES: '1000',
      WEBHOOK_ALLOW_PRIVATE: 'true', WEBHOOK_REQUIRE_HTTPS: '1', INITIAL_CREDITS: '0', LOG_LEVEL: 'debug', JOB_LEASE_SEC: '2',
      JOB_TIMEOUT_SEC: '60', RATE_LIMIT_UPLOAD: '1', RATE_LIMIT_DEFAULT: '5000', EVENT_CATCH_UP_SEC: '30', ORPHAN_SWEEP_SEC: '600',
      SERVICE_API_KEY: `rk_${'a'.repeat(32)}`, SIGNING_SECRET: `whsec_${'b'.repeat(16)}`, ANALYSIS_SCHEDULING: 'normal',
    });
    assert.deepEqual(
      [c.port, c.host, c.dataDir, c.role, c.workerConcurrency, c.maxUploadBytes, c.webhookAllowPrivate, c.webhookRequireHttps, c.initialCredits, c.logLevel, c.jobLeaseSec, c.jobTimeoutSec, c.rateLimits.upload, c.rateLimits.default, c.eventCatchUpSec, c.orphanSweepSec, c.analysisScheduling],
      [9000, '0.0.0.0', '/tmp/x', 'worker', 4, 1000, true, true, 0, 'debug', 2, 60, 1, 5000, 30, 600, 'normal'],
    );
  });

  it('names every bad value in one error', () => {
    const bad: Record<string, string> = {
      PORT: '70000',
      ROLE: 'boss',
      WORKER_CONCURRENCY: '0',
      MAX_UPLOAD_BYTES: '1.5',
      WEBHOOK_ALLOW_PRIVATE: 'yes',
      WEBHOOK_REQUIRE_HTTPS: 'maybe',
      INITIAL_CREDITS: '-1',
      LOG_LEVEL: 'loud',
      JOB_LEASE_SEC: '0',
      JOB_TIMEOUT_SEC: 'abc',
      EVENT_CATCH_UP_SEC: '301',
      ORPHAN_SWEEP_SEC: '59',
      RATE_LIMIT_UPLOAD: '0',
      RATE_LIMIT_REPORT_CREATION: 'x',
      RATE_LIMIT_JOB_STATUS: '-5',
      RATE_LIMIT_FILES: '1e3x',
      RATE_LIMIT_ENTITIES: '2.5',
      RATE_LIMIT_CREDITS: ' ',
      RATE_LIMIT_DEFAULT: 'none',
      SERVICE_API_KEY: 'not-a-key',
      SIGNING_SECRET: 'secret',
      ANALYSIS_SCHEDULING: 'sometimes',
    };
    const problems = problemsOf(bad);
    for (const name of Object.keys(bad)) assert.ok(problems.some((p) => p.includes(name)), `${name} is named: ${problems.join(' | ')}`);
    assert.equal(problems.length, Object.keys(bad).length, 'one problem per variable');
    try {
      loadConfig(bad);
    } catch (err) {
      for (const name of Object.keys(bad)) assert.ok((err as Error).message.includes(name), `the message names ${name}`);
    }
  });

  it('does not leak a bad secret value into the error', () => {
    const problems = problemsOf({ SERVICE_API_KEY: 'rk_short_secret_value', SIGNING_SECRET: 'whsec_x' });
    assert.ok(!problems.join(' ').includes('rk_short_secret_value'));
  });

  it('reads an optional JSON file, the environment winning', () => {
    const dir = tempDir();
    const file = path.join(dir, 'config.json');
    writeFileSync(file, JSON.stringify({ PORT: 7000, LOG_LEVEL: 'warn', INITIAL_CREDITS: 5 }));
    const c = loadConfig({ CONFIG_FILE: file, LOG_LEVEL: 'error' });
    assert.deepEqual([c.port, c.logLevel, c.initialCredits], [7000, 'error', 5]);
    writeFileSync(file, '{ not json');
    assert.ok(problemsOf({ CONFIG_FILE: file }).some((p) => p.includes('CONFIG_FILE')));
    writeFileSync(file, '[1, 2]');
    assert.ok(problemsOf({ CONFIG_FILE: file }).some((p) => p.includes('CONFIG_FILE')));
  });
});
