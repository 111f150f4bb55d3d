// Starting and stopping the service: bootstrap the workspace, listen, start the worker, and
// shut down cleanly on SIGINT/SIGTERM (stop accepting, let running tasks end or lose their
// lease to a successor, close the store).
import { ConfigError, loadConfig, type Config } from './config.ts';
import { compileCacheDir, flushCompileCache } from './compile-cache.ts';
import { composeService, type ComposedService } from './compose/compose.ts';
import type { AnalysisEngine } from './analysis/engine.ts';
import { sweepAtStart } from './store/orphan-sweeper.ts';

export interface RunningService {
  url: string;
  composed: ComposedService;
  workspaceId: string;
  generated: { apiKey: string; signingSecret: string } | null;
  close(): Promise<void>;
}

/**
 * A deployment's speaker embedding network is loaded and run once here, so that a missing or
 * malformed model stops the service at start (as a configuration problem) rather than failing
 * every analysis later.
 */
export async function checkSpeakerEmbeddingModel(path: string): Promise<string> {
  const { loadOnnxEmbedding, EmbeddingModelError } = await import('@rapport/analysis');
  try {
    loadOnnxEmbedding(path);
  } catch (err) {
    if (err instanceof EmbeddingModelError) throw new ConfigError([`SPEAKER_EMBEDDING_MODEL: ${err.message}`]);
    throw err;
  }
  return path;
}

/** The same for a deployment's speaker segmentation network (SEGMENTATION_MODEL). */
export async function checkSegmentationModel(path: string): Promise<string> {
  const { loadSegmentationModel, SegmentationModelError } = await import('@rapport/analysis');
  try {
    loadSegmentationModel(path);
  } catch (err) {
    if (err instanceof SegmentationModelError) throw new ConfigError([`SEGMENTATION_MODEL: ${err.message}`]);
    throw err;
  }
  return path;
}

/** `opts.engine` replaces the engine that would be loaded (tests run the service with a test double). */
export async function runService(config: Config, opts: { logger?: boolean; engine?: AnalysisEngine | null } = {}): Promise<RunningService> {
  const engine =
    opts.engine !== undefined
      ? opts.engine
      : // Loaded here, so that importing the server alone does not load the engine.
        (await import('./analysis/create-engine.ts')).createEngine({
          compileCacheDir: compileCacheDir(config.dataDir),
          processReuse: config.analysisProcessReuse,
          idleProcesses: config.workerConcurrency,
          ...(config.speakerEmbeddingModel ? { speakerEmbeddingModel: await checkSpeakerEmbeddingModel(config.speakerEmbeddingModel) } : {}),
          ...(config.segmentationModel ? { segmentationModel: await checkSegmentationModel(config.segmentationModel) } : {}),
        });
  const composed = await composeService(config, { ...opts, engine });
  const boot = await composed.services.workspace.bootstrap({ serviceApiKey: config.serviceApiKey, signingSecret: config.signingSecret });
  for (const warning of boot.warnings) composed.app.log.warn(warning);
  const { blobs, media } = composed.services.stores;
  // Before listening, so that no upload of this process is in flight; whatever the sweeps cannot
  // do is logged, never a reason not to start (orphan-sweeper.ts). Other processes sharing MEDIA_DIR
  // may be uploading meanwhile: the bounds are composed (compose.ts), as for the periodic sweep.
  await sweepAtStart(blobs, (names) => media.filesWithRows(names), composed.startSweeps);
  const address = config.role === 'worker' ? null : await composed.app.listen({ port: config.port, host: config.host });
  composed.worker?.start();
  return {
    url: address ?? '',
    composed,
    workspaceId: boot.workspaceId,
    generated: boot.generated,
    // The worker has awaited its analyses; then the processes kept warm for the next ones end.
    close: async () => {
      await composed.close();
      await engine?.close?.();
    },
  };
}

/** `rapport serve`: run until a signal, print generated credentials once. `config`: read from the environment unless the caller already read it. */
export async function serveFromEnv(config: Config = loadConfig()): Promise<void> {
  const running = await runService(config);
  // What this process compiled, the engine included, is on disk before it says it is ready (main.ts).
  flushCompileCache();
  if (running.generated) {
    process.stdout.write(
      [
        '',
        'A new workspace was created. Keep these; they are shown only once:',
        `  API key (Service-Api-Key): ${running.generated.apiKey}`,
        `  Webhook signing secret:    ${running.generated.signingSecret}`,
        '',
      ].join('\n'),
    );
  }
  process.stdout.write(`Rapport is listening on ${running.url} (data in ${config.dataDir})\n`);
  const stop = async (signal: string) => {
    process.stdout.write(`${signal}: shutting down\n`);
    await running.close();
    process.exit(0);
  };
  const stopOn = (signal: string) => () => {
    stop(signal).catch((err: unknown) => {
      process.stderr.write(`${signal}: shutdown failed: ${(err as Error).message}\n`);
      process.exit(1);
    });
  };
  process.once('SIGINT', stopOn('SIGINT'));
  process.once('SIGTERM', stopOn('SIGTERM'));
}
