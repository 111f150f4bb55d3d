// A recording: its speaker timeline (from the diarization) over the loudness envelope, playing a
// speaker's stretch on click, per-speaker figures, labelling a speaker (labels its entity),
// re-analysis with speaker-count hints and attaching a transcript.
import type { JSX } from 'preact';
import { useEffect, useRef, useState } from 'preact/hooks';
import type { Diarization, Media, SpeakerHints } from '@rapport/client';
import type { Session } from '../api.ts';
import { localCopies } from '../upload.ts';
import { HintsFields, cleanHints } from '../hints.tsx';
import { Timeline, ShareBars } from '../figures/timeline.tsx';
import { envelope, speakerFigures } from '../figures/speaker-stats.ts';
import type { Segment } from '../figures/speaker-stats.ts';
import { analysisText } from './recordings.tsx';
import { ErrorNote, Section, fmtBytes, fmtDate, fmtSec, speakerColour, useAsync } from '../ui.tsx';

function useLocalAudio(id: string): { file: File | null; url: string | null; env: number[] | null; pick: (f: File) => void } {
  const [file, setFile] = useState<File | null>(localCopies.get(id) ?? null);
  const [env, setEnv] = useState<number[] | null>(null);
  const [url, setUrl] = useState<string | null>(null);
  useEffect(() => {
    if (!file) return;
    const u = URL.createObjectURL(file);
    setUrl(u);
    let stop = false;
    const ctx = new AudioContext();
    file.arrayBuffer().then((b) => ctx.decodeAudioData(b)).then((audio) => {
      if (!stop) setEnv(envelope(audio.getChannelData(0), 500));
    }).catch(() => setEnv(null)).finally(() => void ctx.close());
    return () => {
      stop = true;
      URL.revokeObjectURL(u);
    };
  }, [file]);
  return { file, url, env, pick: (f) => { localCopies.set(id, f); setFile(f); } };
}

function SpeakerLabel({ session, entityId, current, name, onDone }: { session: Session; entityId: string | null; current: string | null; name: string; onDone: () => void }): JSX.Element {
  const [error, setError] = useState<unknown>(null);
  if (!entityId) return <span>–</span>;
  return (
    <form class="inline" onSubmit={async (e) => {
      e.preventDefault();
      const label = String(new FormData(e.currentTarget).get('label') ?? '').trim();
      setError(null);
      try {
        await session.client.entities.update(entityId, { label: label || null });
        onDone();
      } catch (err) {
        setError(err);
      }
    }}>
      <label class="visually-hidden" for={`label-${entityId}`}>Name of {name}</label>
      <input id={`label-${entityId}`} name="label" defaultValue={current ?? ''} maxLength={64} placeholder="Name" />
      <button type="submit">Save</button>
      <ErrorNote error={error} />
    </form>
  );
}

export function RecordingPage({ session, id }: { session: Session; id: string }): JSX.Element {
  const data = useAsync(async (signal) => {
    const media = await session.client.files.retrieve(id, { signal });
    const diar: Diarization | null = media.analysis.status === 'ready' && media.kind !== 'transcript'
      ? await session.client.files.diarization(id, { signal }) : null;
    // A speaker's name is its person's label (what labelling sets), else the transcript's name.
    const entities = await Promise.all(media.analysis.speakers.map((sp) => (sp.entityId ? session.client.entities.retrieve(sp.entityId, { signal }).catch(() => null) : null)));
    const names = new Map(media.analysis.speakers.map((sp, i) => [sp.index, entities[i]?.label ?? sp.label]));
    return { media, diar, names };
  }, [id]);
  const audio = useLocalAudio(id);
  const player = useRef<HTMLAudioElement>(null);
  const [playing, setPlaying] = useState<Segment | null>(null);
  const [hints, setHints] = useState<SpeakerHints>({});
  const [actionError, setActionError] = useState<unknown>(null);
  const [note, setNote] = useState('');
  const media: Media | undefined = data.data?.media;

  // While an analysis is owed, read the media again until it ends.
  useEffect(() => {
    if (!media || (media.analysis.status !== 'pending' && media.analysis.status !== 'running')) return;
    const t = setTimeout(data.reload, 1000);
    return () => clearTimeout(t);
  }, [media]);

  const play = (s: Segment): void => {
    const el = player.current;
    if (!el) return;
    setPlaying(s);
    el.currentTime = s.start;
    el.dataset.stopAt = String(s.end);
    void el.play().catch((err: unknown) => setActionError(err));
  };

  if (!media) return <><ErrorNote error={data.error} context="Could not read the recording" />{data.loading ? <p class="loading">Loading…</p> : null}</>;
  const diar = data.data?.diar ?? null;
  const speakers = media.analysis.speakers;
  const names = data.data?.names;
  const name = (i: number): string => names?.get(i) ?? `Speaker ${i + 1}`;
  const figures = diar ? speakerFigures(diar.segments) : [];

  return (
    <>
      <p><a href="#/recordings">← Recordings</a></p>
      <h1>{media.label ?? media.filename}</h1>
      <p class="meta">{media.kind} · {fmtSec(media.durationSec)} · {fmtBytes(media.sizeBytes)} · uploaded {fmtDate(media.createdAt)} · <span aria-live="polite">{analysisText(media)}</span>
        {media.analysis.speakerHints ? ` · hints ${JSON.stringify(media.analysis.speakerHints).replace(/[{}"]/g, '')}` : ''}</p>
      <ErrorNote error={data.error} />
      <ErrorNote error={actionError} />
      {media.kind !== 'transcript' ? (
        <Section title="Timeline">
          {diar ? (
            <Timeline segments={diar.segments} durationSec={diar.durationSec ?? media.durationSec ?? 0} names={name} env={audio.env} onPlay={audio.url ? play : null} playing={playing} />
          ) : <p>The timeline appears when the analysis is ready.</p>}
          {audio.url ? (
            <audio ref={player} src={audio.url} controls preload="auto" aria-label="Recording"
              onTimeUpdate={(e) => {
                const el = e.currentTarget;
                const stopAt = Number(el.dataset.stopAt);
                if (stopAt && el.currentTime >= stopAt) {
                  el.pause();
                  delete el.dataset.stopAt;
                  setPlaying(null);
                }
              }} />
          ) : (
            <p class="hint">
              The service keeps recordings for analysis but has no route that streams them back, so the dashboard plays
              the copy on this computer: <label for="local-copy">choose your copy of {media.filename}</label>{' '}
              <input id="local-copy" type="file" accept="audio/*,video/*" onChange={(e) => {
                const f = e.currentTarget.files?.[0];
                if (f) audio.pick(f);
              }} />
            </p>
          )}
        </Section>
      ) : null}
      {figures.length ? (
        <Section title="Speakers">
          <ShareBars rows={figures.map((f) => ({ label: name(f.speaker), share: f.share, colour: speakerColour(f.speaker) }))} />
          <div class="table-wrap" tabIndex={0} role="region" aria-label="Table, scrolls sideways on small screens">
            <table>
              <caption class="visually-hidden">Per-speaker figures from the diarization</caption>
              <thead><tr><th scope="col">Speaker</th><th scope="col">Speech</th><th scope="col">Share</th><th scope="col">Turns</th><th scope="col">Mean turn</th><th scope="col">Longest</th><th scope="col">Pause before a turn</th><th scope="col">Turns started in overlap</th><th scope="col">Name</th><th scope="col">Person</th></tr></thead>
              <tbody>
                {figures.map((f) => {
                  const sp = speakers.find((s) => s.index === f.speaker);
                  return (
                    <tr key={f.speaker}>
                      <th scope="row"><span class="swatch" style={{ background: speakerColour(f.speaker) }} aria-hidden="true" />{name(f.speaker)}</th>
                      <td>{fmtSec(f.speechSec)}</td>
                      <td>{Math.round(f.share * 100)}%</td>
                      <td>{f.turns}</td>
                      <td>{fmtSec(f.meanTurnSec)}</td>
                      <td>{fmtSec(f.longestTurnSec)}</td>
                      <td>{f.meanPauseBeforeSec === null ? '–' : `${f.meanPauseBeforeSec.toFixed(2)} s`}</td>
                      <td>{f.overlapsStarted}</td>
                      <td><SpeakerLabel session={session} entityId={sp?.entityId ?? null} current={names?.get(f.speaker) ?? null} name={name(f.speaker)} onDone={data.reload} /></td>
                      <td>
                        {sp?.entityId ? <a href={`#/people/${sp.entityId}`}>Profile</a> : null}{' '}
                        <a href={`#/matching?media=${media.id}&speaker=${f.speaker}`}>Match {name(f.speaker)}</a>
                      </td>
                    </tr>
                  );
                })}
              </tbody>
            </table>
          </div>
        </Section>
      ) : null}
      {media.kind !== 'transcript' ? (
        <Section title="Analyse again">
          <form onSubmit={async (e) => {
            e.preventDefault();
            setActionError(null);
            setNote('');
            try {
              const h = cleanHints(hints);
              const m = await session.client.files.reanalyze(media.id, Object.keys(h).length ? h : { numSpeakers: null });
              data.set({ media: m, diar: null, names: new Map() });
              setNote('Analysis queued with these hints.');
            } catch (err) {
              setActionError(err);
            }
          }}>
            <HintsFields idPrefix="re" value={hints} onChange={setHints} />
            <button type="submit">Re-analyse</button>
            <span role="status">{note}</span>
          </form>
          <p class="hint">A re-analysis costs what an analysis does (1 credit per started minute).</p>
          <form class="row" onSubmit={async (e) => {
            e.preventDefault();
            const f = (e.currentTarget.elements.namedItem('transcript') as HTMLInputElement).files?.[0];
            if (!f) return;
            setActionError(null);
            try {
              await session.client.files.upload(f, { mediaId: media.id });
              setNote('Transcript attached.');
              data.reload();
            } catch (err) {
              setActionError(err);
            }
          }}>
            <label for="transcript">Attach a transcript (WebVTT, SRT or JSON)</label>
            <input id="transcript" name="transcript" type="file" accept=".vtt,.srt,.json,text/vtt" />
            <button type="submit">Attach</button>
          </form>
        </Section>
      ) : null}
    </>
  );
}
