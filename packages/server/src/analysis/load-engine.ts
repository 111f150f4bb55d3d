// Binds the server to the analysis engine when the engine package provides what jobs need.
// Until then the worker runs without one, and jobs fail with an honest internal_error.
import type { AnalysisEngine, EngineOptions } from './engine.ts';

export async function loadEngine(options: EngineOptions = {}): Promise<AnalysisEngine | null> {
  try {
    // A computed specifier: the adapter file may not exist in a build without the engine.
    const adapter = './engine.adapter.ts';
    const mod = (await import(adapter)) as { createEngine?: (opts: EngineOptions) => AnalysisEngine };
    return mod.createEngine ? mod.createEngine(options) : null;
  } catch (err) {
    if ((err as { code?: string }).code === 'ERR_MODULE_NOT_FOUND') return null;
    throw err;
  }
}
