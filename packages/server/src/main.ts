// `npm start`: the service on its embedded default (one process, everything under DATA_DIR).
// The service's modules are loaded after the compile cache is on (compile-cache.ts), so that this
// process starts faster and has written the engine's compiled code (serveFromEnv, before it says
// it is ready) when the first analysis process needs it.
import { ConfigError, loadConfig } from './config.ts';
import { compileCacheDir, enableCompileCache } from './compile-cache.ts';

try {
  const config = loadConfig();
  enableCompileCache(compileCacheDir(config.dataDir));
  const { serveFromEnv } = await import('./serve.ts');
  await serveFromEnv(config);
} catch (err) {
  if (err instanceof ConfigError) {
    process.stderr.write(`${err.message}\n`);
    process.exit(78);
  }
  throw err;
}
