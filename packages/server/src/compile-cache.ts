// Node's module compile cache for the service's processes (module.enableCompileCache). Node
// strips the types of every TypeScript module and compiles it at each start of a process: an
// analysis process, started for one recording, spent 0.70-0.76 s of CPU (0.4 s of wall time) on
// the engine's 72 modules on the 2-core test host. The cache keeps the stripped and compiled
// code, checked against each file's size and hash, in DATA_DIR/compile-cache; from it the engine
// loads in 0.26-0.31 s of CPU. A whole analysis of a 300 s recording costs about 0.2 s less
// (2.21 -> 2.04 s, `node bench/postgres.ts workers`): the functions it calls are still compiled
// when first called, and the cache, made as each module is compiled, does not hold them. The
// service's own process writes it at its start (it loads the engine too), so the first analysis
// process already finds it; the analysis processes use the same directory (analysis.child.ts).
// Code is loaded from it, so it is private (0700) as DATA_DIR is; where it cannot be made,
// modules are compiled as before.
import { mkdirSync } from 'node:fs';
import module from 'node:module';
import path from 'node:path';

/** The compile cache directory of a service whose DATA_DIR is `dataDir`. */
export function compileCacheDir(dataDir: string): string {
  return path.join(dataDir, 'compile-cache');
}

/** Makes the directory (0700) if missing; answers it, or null where it cannot be made. */
export function ensureCompileCacheDir(dir: string): string | null {
  try {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    return dir;
  } catch {
    return null;
  }
}

/** Turns the compile cache on in this process for the modules it loads from now on. */
export function enableCompileCache(dir: string): void {
  const made = ensureCompileCacheDir(dir);
  if (made) module.enableCompileCache(made);
}

/** Writes what this process compiled so far, if the cache is on (Node writes it only at exit otherwise: a service runs for long). */
export function flushCompileCache(): void {
  module.flushCompileCache();
}
