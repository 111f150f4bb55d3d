// Public surface of the server package: start a real service (for the CLI and for tests of
// other packages), and the configuration loader.
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { loadConfig } from './config.ts';
import { runService } from './serve.ts';

export { loadConfig, type Config } from './config.ts';
export { runService, serveFromEnv } from './serve.ts';

/**
 * Starts an in-process service on 127.0.0.1 with a fresh workspace (its own DATA_DIR unless
 * given), for tests and examples. `close()` stops it.
 */
export async function startService(options: { dataDir?: string; port?: number; env?: Record<string, string> } = {}): Promise<{
  url: string;
  apiKey: string;
  signingSecret: string;
  dataDir: string;
  close(): Promise<void>;
}> {
  const dataDir = options.dataDir ?? mkdtempSync(path.join(os.tmpdir(), 'rapport-'));
  const config = loadConfig({ LOG_LEVEL: 'silent', ...options.env, DATA_DIR: dataDir, PORT: String(options.port ?? 0), HOST: '127.0.0.1' });
  const running = await runService(config, { logger: false });
  let apiKey = running.generated?.apiKey ?? config.serviceApiKey;
  let signingSecret = running.generated?.signingSecret ?? config.signingSecret;
  if (!apiKey || !signingSecret) {
    const ws = await running.composed.services.workspace.createWorkspace('test');
    apiKey = ws.apiKey;
    signingSecret = ws.signingSecret;
  }
  return { url: running.url, apiKey, signingSecret, dataDir, close: () => running.close() };
}
