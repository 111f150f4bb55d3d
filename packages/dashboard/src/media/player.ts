// A recording's sound for its page. The <audio> element streams the upload from the service
// through a content link (POST /v1/files/:id/content-links): an element cannot send the API key,
// and the key never goes into a URL, so the SDK mints a short-lived link for this one media with
// the key, and the element plays it with range requests (seeking included). A link that expires
// while the page is open is minted again before the next play, or when the element reports an
// error. The loudness envelope is drawn from the file itself, read with the key through the SDK,
// when it is small enough to decode in the page.
import { useEffect, useRef, useState } from 'preact/hooks';
import type { Media } from '@rapport/client';
import type { Session } from '../api.ts';
import { envelope } from '../figures/speaker-stats.ts';

/** Larger files are not decoded in the page for the envelope (the timeline needs none). */
export const ENVELOPE_MAX_BYTES = 32 * 1024 * 1024;
/** A link this close to its end is renewed before playing. */
const RENEW_MARGIN_MS = 60_000;

export interface Player {
  /** The link the element plays; null until minted (or for a transcript on its own). */
  src: string | null;
  error: unknown;
  /** Answers a link good for at least a minute, minting a new one when needed. */
  fresh: () => Promise<string>;
  /** The element failed: mint a new link (at most every 10 s). */
  renew: () => void;
}

export function usePlayer(session: Session, media: Media | undefined): Player {
  const [src, setSrc] = useState<string | null>(null);
  const [error, setError] = useState<unknown>(null);
  const expires = useRef(0);
  const lastRenew = useRef(0);
  const playable = !!media && media.kind !== 'transcript';
  const mint = async (): Promise<string> => {
    if (!media) throw new Error('no media');
    const link = await session.client.files.createContentLink(media.id);
    expires.current = Date.parse(link.expiresAt);
    setSrc(link.url);
    setError(null);
    return link.url;
  };
  useEffect(() => {
    setSrc(null);
    if (playable) mint().catch(setError);
  }, [media?.id, playable]);
  return {
    src,
    error,
    fresh: async () => (src && expires.current - Date.now() > RENEW_MARGIN_MS ? src : mint()),
    renew: () => {
      if (!playable || Date.now() - lastRenew.current < 10_000) return;
      lastRenew.current = Date.now();
      mint().catch(setError);
    },
  };
}

/** The loudness envelope of the recording, or null (too large, not decodable, not yet read). */
export function useEnvelope(session: Session, media: Media | undefined): number[] | null {
  const [env, setEnv] = useState<number[] | null>(null);
  const ready = media?.analysis.status === 'ready';
  useEffect(() => {
    setEnv(null);
    if (!media || !ready || media.kind === 'transcript' || media.sizeBytes > ENVELOPE_MAX_BYTES) return;
    const ctl = new AbortController();
    const ctx = new AudioContext();
    session.client.files.content(media.id, {}, { signal: ctl.signal })
      .then((res) => res.arrayBuffer())
      .then((bytes) => ctx.decodeAudioData(bytes))
      .then((audio) => {
        if (!ctl.signal.aborted) setEnv(envelope(audio.getChannelData(0), 500));
      })
      .catch(() => setEnv(null))
      .finally(() => void ctx.close());
    return () => ctl.abort();
  }, [media?.id, ready]);
  return env;
}
