// `npm start`: the service on its embedded default (one process, everything under DATA_DIR).
import { ConfigError } from './config.ts';
import { serveFromEnv } from './serve.ts';

try {
  await serveFromEnv();
} catch (err) {
  if (err instanceof ConfigError) {
    process.stderr.write(`${err.message}\n`);
    process.exit(78);
  }
  throw err;
}
