// A recording: its speaker timeline (from the diarization) over the loudness envelope, with the
// transcript's words on it when one is attached; click a stretch to hear it, streamed from the
// service; per-speaker figures (talk share, turns, gaps, pace and pitch: the API's measurements,
// named and rounded as everywhere else, figures/measures.tsx); the transcript aligned to the
// timeline; naming a speaker (which names their person); re-analysis with
// speaker-count hints, followed live; attaching a transcript.
import type { JSX } from 'preact';
import { useRef, useState } from 'preact/hooks';
import type { Diarization, Media, MediaMetrics, SpeakerHints } from '@rapport/client';
import type { Session } from '../api.ts';
import { HintsFields, cleanHints, hintsText } from '../hints.tsx';
import { Downloads, recordingDownloads } from '../downloads.tsx';
import { Timeline } from '../figures/timeline.tsx';
import { ShareBars } from '../figures/bars.tsx';
import type { Segment } from '../figures/speaker-stats.ts';
import { MeasureCell, MeasureHeader, SPEAKER_TABLE } from '../figures/measures.tsx';
import { AnalysisStages, useMediaAnalysis } from '../media/live.tsx';
import { useEnvelope, usePlayer } from '../media/player.ts';
import { Transcript, parseDiarizationVtt, textsBySegment, type Cue } from '../media/transcript.tsx';
import { VoiceAndPace } from '../media/voice.tsx';
import { analysisText } from './recordings.tsx';
import { ErrorNote, ScrollRegion, Section, fmtBytes, fmtDate, fmtSec, speakerColour, useAsync } from '../ui.tsx';

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
    // A transcript on its own is analysed from its cues (decisions §19): its diarization and measurements exist too.
    const ready = media.analysis.status === 'ready';
    const [diar, metrics, vtt] = ready
      ? await Promise.all([
        session.client.files.diarization(id, { signal }),
        session.client.files.metrics(id, { signal }).catch(() => null),
        media.hasTranscript ? session.client.files.diarizationFile(id, 'vtt', { signal }) : Promise.resolve(null),
      ])
      : [null, null, null];
    // A speaker's name is its person's label (what labelling sets), else the transcript's name.
    const entities = await Promise.all(media.analysis.speakers.map((sp) => (sp.entityId ? session.client.entities.retrieve(sp.entityId, { signal }).catch(() => null) : null)));
    const names = new Map(media.analysis.speakers.map((sp, i) => [sp.index, entities[i]?.label ?? sp.label]));
    return { media, diar: diar as Diarization | null, metrics: metrics as MediaMetrics | null, cues: vtt && diar ? parseDiarizationVtt(vtt, diar.segments) : null, names };
  }, [id]);
  const [note, setNote] = useState('');
  // While an analysis is owed, its stages come from the media's event stream; its end reloads the page's data.
  // Its end also clears a note about the request that started it ("queued"), now stale.
  const live = useMediaAnalysis(session, data.data?.media, () => {
    setNote('');
    data.reload();
  });
  const player = useRef<HTMLAudioElement>(null);
  const audio = usePlayer(session, data.data?.media);
  const env = useEnvelope(session, data.data?.media);
  const [playing, setPlaying] = useState<Segment | null>(null);
  const [at, setAt] = useState<number | null>(null);
  const [hints, setHints] = useState<SpeakerHints>({});
  const [actionError, setActionError] = useState<unknown>(null);
  const media: Media | undefined = live.latest ?? data.data?.media;

  /** Plays one stretch: a fresh link when the current one is about to expire, then seek and play until its end. */
  const play = async (s: Segment): Promise<void> => {
    const el = player.current;
    if (!el) return;
    setActionError(null);
    try {
      const src = await audio.fresh();
      if (el.getAttribute('src') !== src) {
        el.src = src;
        await new Promise<void>((resolve, reject) => {
          el.addEventListener('loadedmetadata', () => resolve(), { once: true });
          el.addEventListener('error', () => reject(new Error('The recording could not be loaded.')), { once: true });
        });
      }
      setPlaying(s);
      el.dataset.stopAt = String(s.end);
      el.currentTime = s.start;
      await el.play();
    } catch (err) {
      setPlaying(null);
      setActionError(err);
    }
  };

  if (!media) return <><ErrorNote error={data.error} context="Could not read the recording" />{data.loading ? <p class="loading">Loading…</p> : null}</>;
  const diar = data.data?.diar ?? null;
  const speakers = media.analysis.speakers;
  const names = data.data?.names;
  const cues: Cue[] | null = data.data?.cues ?? null;
  const name = (i: number): string => names?.get(i) ?? `Speaker ${i + 1}`;
  // The engine's figures (GET /v1/files/:id/metrics), never recomputed here: one definition each.
  const figures = data.data?.metrics?.speakers ?? [];
  const owed = media.analysis.status === 'pending' || media.analysis.status === 'running';

  return (
    <>
      <p><a href="#/recordings">← Recordings</a></p>
      <h1>{media.label ?? media.filename}</h1>
      <p class="meta">{media.kind} · {fmtSec(media.durationSec)} · {fmtBytes(media.sizeBytes)} · uploaded {fmtDate(media.createdAt)} · <span aria-live="polite">{analysisText(media)}</span>
        {media.analysis.speakerHints ? ` · asked for ${hintsText(media.analysis.speakerHints)}` : ''}</p>
      {media.analysis.status === 'ready' ? media.analysis.warnings.map((w) => (
        <p key={w.code} class="warning" role="note" data-code={w.code}><strong>{w.code === 'hint_not_met' ? 'Speaker count not met:' : 'Speaker count uncertain:'}</strong> {w.reason} ({w.found} found).</p>
      )) : null}
      <ErrorNote error={data.error} />
      <ErrorNote error={live.error} context="The live analysis stream stopped" />
      <ErrorNote error={audio.error} context="The recording cannot be played" />
      <ErrorNote error={actionError} />
      {owed && media.kind !== 'transcript' ? <AnalysisStages media={media} seen={[]} /> : null}
      {media.kind === 'transcript' && diar ? (
        <Section title="Timeline">
          <Timeline segments={diar.segments} durationSec={diar.durationSec ?? media.durationSec ?? 0} names={name} env={env} onPlay={null}
            playing={null} at={null} {...(cues ? { texts: textsBySegment(cues, diar.segments) } : {})} />
          <p class="hint" role="note">A transcript on its own: speakers, times and words come from its cues; there is no audio to hear or to measure a voice from. Upload the recording with this transcript's id (mediaId) to analyse its audio.</p>
        </Section>
      ) : null}
      {media.kind !== 'transcript' ? (
        <Section title="Timeline">
          {diar ? (
            <Timeline segments={diar.segments} durationSec={diar.durationSec ?? media.durationSec ?? 0} names={name} env={env} onPlay={audio.src ? (s) => void play(s) : null}
              playing={playing} at={at} {...(cues ? { texts: textsBySegment(cues, diar.segments) } : {})} />
          ) : <p>The timeline appears when the analysis is ready.</p>}
          <audio ref={player} src={audio.src ?? undefined} controls preload="metadata" aria-label={`Recording ${media.filename}, streamed from the service`}
            onError={() => audio.renew()}
            onTimeUpdate={(e) => {
              const el = e.currentTarget;
              setAt(el.currentTime);
              const stopAt = Number(el.dataset.stopAt);
              if (stopAt && el.currentTime >= stopAt) {
                el.pause();
                delete el.dataset.stopAt;
                setPlaying(null);
              }
            }} />
          <p class="hint">Click a stretch (or focus it and press Enter) to hear it. The recording streams from the service through a link that works for a few minutes; your key never leaves this page.</p>
        </Section>
      ) : null}
      {figures.length ? (
        <Section title="Speakers">
          <ShareBars rows={figures.map((f) => ({ label: name(f.index), share: f.metrics.talkShare, colour: speakerColour(f.index) }))} />
          <ScrollRegion label="Speakers table">
            <table class="speakers">
              <caption class="visually-hidden">Per-speaker figures, as the analysis measured them</caption>
              <thead><tr><th scope="col">Speaker</th>{SPEAKER_TABLE.map((m) => <MeasureHeader key={m.key} m={m} />)}<th scope="col">Name</th><th scope="col">Person</th></tr></thead>
              <tbody>
                {figures.map((f) => {
                  const sp = speakers.find((s) => s.index === f.index);
                  return (
                    <tr key={f.index} data-speaker={f.index}>
                      <th scope="row"><span class="swatch" style={{ background: speakerColour(f.index) }} aria-hidden="true" />{name(f.index)}</th>
                      {SPEAKER_TABLE.map((m) => <MeasureCell key={m.key} m={m} metrics={f.metrics} />)}
                      <td><SpeakerLabel session={session} entityId={sp?.entityId ?? null} current={names?.get(f.index) ?? null} name={name(f.index)} onDone={data.reload} /></td>
                      <td>
                        {sp?.entityId ? <a href={`#/people/${sp.entityId}`}>Profile</a> : null}{' '}
                        {sp?.enough === false
                          ? <span class="hint">too little speech to judge</span>
                          : <a href={`#/matching?media=${media.id}&speaker=${f.index}`}>Match {name(f.index)}</a>}
                      </td>
                    </tr>
                  );
                })}
              </tbody>
            </table>
          </ScrollRegion>
        </Section>
      ) : null}
      {diar ? (
        <Section title="Downloads">
          <Downloads label="Download this recording's analysis" items={recordingDownloads(session, media.id, (media.label ?? media.filename).replace(/\.[^.]+$/, ''))} />
          <p class="hint">RTTM for diarization scorers, WebVTT and SRT for players and editors (with the transcript's words when one is attached), and each speaker's measurements as CSV with the units in the header.</p>
        </Section>
      ) : null}
      {data.data?.metrics ? (
        <Section title="Voice and pace">
          <VoiceAndPace metrics={data.data.metrics} name={name} />
        </Section>
      ) : null}
      {cues ? (
        <Section title="Transcript">
          <Transcript cues={cues} name={name} at={at} onPlay={audio.src ? (c) => void play(c) : null} />
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
              data.set({ media: m, diar: null, metrics: null, cues: null, names: new Map() });
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
