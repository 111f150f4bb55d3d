// A person's page: rename, tags, and their figures across recordings (from each recording's
// diarization: speech, share, turns; pace and pitch from the API's profile of the person), with
// links to each recording and to matching.
import type { JSX } from 'preact';
import { useState } from 'preact/hooks';
import type { Entity } from '@rapport/client';
import type { Session } from '../api.ts';
import { speakerFigures } from '../figures/speaker-stats.ts';
import type { SpeakerFigures } from '../figures/speaker-stats.ts';
import { ErrorNote, Section, fmtSec, useAsync } from '../ui.tsx';
import { personName } from './people.tsx';
import { hz, UNITS } from '../media/voice.tsx';

interface Appearance {
  mediaId: string;
  speakerIndex: number;
  name: string;
  figures: SpeakerFigures | null;
  error: unknown;
}

/** At most this many recordings are read for the per-recording figures. */
const MAX_READ = 20;

export function PersonPage({ session, id }: { session: Session; id: string }): JSX.Element {
  const [error, setError] = useState<unknown>(null);
  const person = useAsync((signal) => session.client.entities.retrieve(id, { signal }), [id]);
  const apps = useAsync(async (signal) => {
    const p = await session.client.entities.retrieve(id, { signal });
    return Promise.all(p.appearances.slice(0, MAX_READ).map(async (a): Promise<Appearance> => {
      try {
        const [m, d] = await Promise.all([session.client.files.retrieve(a.mediaId, { signal }), session.client.files.diarization(a.mediaId, { signal })]);
        return { ...a, name: m.label ?? m.filename, figures: speakerFigures(d.segments).find((f) => f.speaker === a.speakerIndex) ?? null, error: null };
      } catch (err) {
        return { ...a, name: a.mediaId, figures: null, error: err };
      }
    }));
  }, [id]);
  // The person's profile over their analysed recordings (GET /v1/entities/:id/metrics).
  const profile = useAsync((signal) => session.client.entities.metrics(id, { signal }).then((m) => m.metrics).catch(() => null), [id]);
  const p: Entity | undefined = person.data;
  const act = async (f: () => Promise<Entity>): Promise<void> => {
    setError(null);
    try {
      person.set(await f());
    } catch (err) {
      setError(err);
    }
  };
  if (!p) return <><ErrorNote error={person.error} context="Could not read this person" />{person.loading ? <p class="loading">Loading…</p> : null}</>;
  const rows = apps.data ?? [];
  const measured = rows.filter((r) => r.figures);
  const totalTurns = measured.reduce((s, r) => s + (r.figures?.turns ?? 0), 0);
  const meanShare = measured.length ? measured.reduce((s, r) => s + (r.figures?.share ?? 0), 0) / measured.length : null;

  return (
    <>
      <p><a href="#/people">← People</a></p>
      <h1>{personName(p)}</h1>
      <ErrorNote error={error} />
      <Section title="Name and tags">
        <form class="row" onSubmit={(e) => {
          e.preventDefault();
          const label = String(new FormData(e.currentTarget).get('label') ?? '').trim();
          void act(() => session.client.entities.update(p.id, { label: label || null }));
        }}>
          <label for="person-label">Name</label>
          <input id="person-label" name="label" defaultValue={p.label ?? ''} maxLength={64} key={p.label ?? ''} />
          <button type="submit">Rename</button>
        </form>
        <ul class="tags" aria-label="Tags">
          {p.tags.map((t) => (
            <li key={t} class="tag">{t} <button type="button" aria-label={`Remove tag ${t}`} onClick={() => void act(() => session.client.entities.untag(p.id, t))}>×</button></li>
          ))}
        </ul>
        <form class="row" onSubmit={(e) => {
          e.preventDefault();
          const el = e.currentTarget;
          const tags = String(new FormData(el).get('tags') ?? '').split(',').map((t) => t.trim()).filter(Boolean);
          if (tags.length) void act(() => session.client.entities.tag(p.id, tags)).then(() => el.reset());
        }}>
          <label for="person-tags">Add tags (comma-separated)</label>
          <input id="person-tags" name="tags" />
          <button type="submit">Tag</button>
        </form>
      </Section>
      <Section title="Across recordings">
        <dl class="figures">
          <div><dt>Speech</dt><dd>{fmtSec(p.speechSec)}</dd></div>
          <div><dt>Recordings</dt><dd>{new Set(p.appearances.map((a) => a.mediaId)).size}</dd></div>
          <div><dt>Turns</dt><dd>{apps.data ? totalTurns : '…'}</dd></div>
          <div><dt>Mean talk share</dt><dd>{meanShare === null ? '–' : `${Math.round(meanShare * 100)}%`}</dd></div>
          <div><dt title={UNITS.speaking}>Pace</dt><dd>{typeof profile.data?.speakingRateSylPerSec === 'number' ? `${profile.data.speakingRateSylPerSec.toFixed(1)} syl/s` : '–'}</dd></div>
          <div><dt title={UNITS.pitch}>Median pitch</dt><dd>{typeof profile.data?.pitchMedianSt === 'number' ? `${hz(profile.data.pitchMedianSt).toFixed(0)} Hz` : '–'}</dd></div>
        </dl>
        <dl class="legend" aria-label="Units">
          <div><dt>syl/s</dt><dd>{UNITS.speaking}</dd></div>
          <div><dt>Hz</dt><dd>{UNITS.pitch}</dd></div>
        </dl>
        <p><a href={`#/matching?entity=${p.id}`}>Match {personName(p)} with others</a></p>
        <ErrorNote error={apps.error} />
        <div class="table-wrap" tabIndex={0} role="region" aria-label="Table, scrolls sideways on small screens">
          <table>
            <caption class="visually-hidden">Appearances</caption>
            <thead><tr><th scope="col">Recording</th><th scope="col">Speaker</th><th scope="col">Speech</th><th scope="col">Share</th><th scope="col">Turns</th><th scope="col">Mean turn</th></tr></thead>
            <tbody>
              {p.appearances.map((a) => {
                const r = rows.find((x) => x.mediaId === a.mediaId && x.speakerIndex === a.speakerIndex);
                return (
                  <tr key={`${a.mediaId}-${a.speakerIndex}`}>
                    <td><a href={`#/recordings/${a.mediaId}`}>{r?.name ?? a.mediaId}</a></td>
                    <td>{a.speakerIndex + 1}</td>
                    <td>{fmtSec(a.speechSec)}</td>
                    <td>{r?.figures ? `${Math.round(r.figures.share * 100)}%` : '–'}</td>
                    <td>{r?.figures?.turns ?? '–'}</td>
                    <td>{fmtSec(r?.figures?.meanTurnSec)}</td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        </div>
      </Section>
    </>
  );
}
