// Media analyses as they happen, from the API's media event streams (GET /v1/files/events for a
// page of many, GET /v1/files/:id/events for one), never by polling: the latest state of each
// media, and the stages each was seen in, for the stage list of an upload.
import type { JSX } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import { AbortError } from '@rapport/client';
import type { Media, MediaEvent } from '@rapport/client';
import type { Session } from '../api.ts';

export interface LiveMedia {
  /** The latest state of each media an event told of. */
  latest: Map<string, Media>;
  /** Per media, the steps seen, in order: `queued`, the running stages, `ready` or `failed`. */
  seen: Map<string, string[]>;
  error: unknown;
}

/** The step a media's state shows: queued, a running stage, ready or failed. */
export function stepOf(m: Media): string {
  const a = m.analysis;
  if (a.status === 'running') return a.stage ?? 'detecting_speech';
  return a.status === 'pending' ? 'queued' : a.status;
}

function remember(prev: LiveMedia, e: MediaEvent): LiveMedia {
  const latest = new Map(prev.latest).set(e.media.id, e.media);
  const steps = prev.seen.get(e.media.id) ?? [];
  const step = stepOf(e.media);
  const seen = steps.at(-1) === step ? prev.seen : new Map(prev.seen).set(e.media.id, [...steps, step]);
  return { latest, seen, error: null };
}

/** Follows every media of the workspace while the component lives (one stream). */
export function useLiveMedia(session: Session, onEnded?: (m: Media) => void): LiveMedia {
  const [live, setLive] = useState<LiveMedia>({ latest: new Map(), seen: new Map(), error: null });
  useEffect(() => {
    const ctl = new AbortController();
    (async () => {
      for await (const e of session.client.files.stream({ signal: ctl.signal })) {
        setLive((prev) => remember(prev, e));
        if (e.event !== 'media.updated') onEnded?.(e.media);
      }
    })().catch((error: unknown) => {
      if (!(error instanceof AbortError) && !ctl.signal.aborted) setLive((prev) => ({ ...prev, error }));
    });
    return () => ctl.abort();
  }, [session]);
  return live;
}

/** Follows one media's analysis while it is pending or running; answers its latest state. */
export function useMediaAnalysis(session: Session, media: Media | undefined, onEnded: (m: Media) => void): { latest: Media | undefined; error: unknown } {
  const [latest, setLatest] = useState<Media | undefined>(undefined);
  const [error, setError] = useState<unknown>(null);
  const open = media && (media.analysis.status === 'pending' || media.analysis.status === 'running');
  useEffect(() => {
    if (!media || !open) return;
    setLatest(undefined);
    const ctl = new AbortController();
    (async () => {
      for await (const e of session.client.files.events(media.id, { signal: ctl.signal })) {
        setLatest(e.media);
        if (e.event !== 'media.updated') onEnded(e.media);
      }
    })().catch((err: unknown) => {
      if (!(err instanceof AbortError) && !ctl.signal.aborted) setError(err);
    });
    return () => ctl.abort();
  }, [media?.id, open]);
  return { latest: latest && media && latest.id === media.id ? latest : media, error };
}

const STEPS: { key: string; label: string }[] = [
  { key: 'queued', label: 'Queued' },
  { key: 'detecting_speech', label: 'Detecting speech' },
  { key: 'identifying_speakers', label: 'Identifying speakers' },
  { key: 'measuring_behavior', label: 'Measuring behaviour' },
  { key: 'ready', label: 'Ready' },
];

/** The analysis's steps, each done, current or to come, with the progress of the whole. */
export function AnalysisStages({ media, seen }: { media: Media; seen: readonly string[] }): JSX.Element {
  const step = stepOf(media);
  const failed = step === 'failed';
  const at = failed ? STEPS.findIndex((s) => s.key === seen.filter((x) => x !== 'failed').at(-1)) : STEPS.findIndex((s) => s.key === step);
  const pct = Math.round(media.analysis.progress * 100);
  return (
    <div class="stages" data-step={step} data-seen={seen.join(' ')}>
      <ol aria-label={`Analysis of ${media.filename}`}>
        {STEPS.map((s, i) => {
          const state = i < at || step === 'ready' ? 'done' : i === at ? (failed ? 'failed' : 'current') : 'todo';
          return (
            <li key={s.key} class={state} aria-current={state === 'current' ? 'step' : undefined}>
              {s.label}{state === 'done' ? ' ✓' : state === 'failed' ? ' ✗' : ''}
            </li>
          );
        })}
      </ol>
      {media.analysis.status === 'running' ? <progress max={100} value={pct} aria-label={`Analysis of ${media.filename}`}>{pct}%</progress> : null}
      {failed && media.analysis.error ? <p class="error-text">Analysis failed: {media.analysis.error.message} ({media.analysis.error.code})</p> : null}
    </div>
  );
}
