// Analyses are cached as JSON by the server and read back for every job, possibly long after the
// engine that wrote them was replaced. `upgradeCachedAnalysis` brings one to what the current
// engine reports where the difference is a correction rather than a new measurement, so that a
// document built from a cached analysis never states what the engine now knows it did not measure.
import type { MediaAnalysis } from './types.ts';
import { overlapMeasured } from './behavior/speaker-metrics.ts';

/**
 * Corrections, in the order the engine made them:
 * - Before interruptions, backchannels and overlap could be null, an audio-only track (one
 *   speaker per frame) stored 0 for each: a figure that was never measured. They become null.
 * Pure and idempotent: an analysis the current engine wrote comes back unchanged (same object).
 */
export function upgradeCachedAnalysis(analysis: MediaAnalysis): MediaAnalysis {
  if (overlapMeasured(analysis)) return analysis;
  const stale = analysis.speakers.some(({ metrics: m }) => m.interruptionsMade !== null || m.interruptionsReceived !== null || m.backchannels !== null || m.overlapSec !== null);
  if (!stale) return analysis;
  return {
    ...analysis,
    speakers: analysis.speakers.map((s) => ({
      ...s,
      metrics: { ...s.metrics, interruptionsMade: null, interruptionsReceived: null, backchannels: null, overlapSec: null },
    })),
  };
}
