// A person's page: rename, tags, and their figures across recordings (the API's profile of the
// person and its per-recording measurements, named and rounded as everywhere else:
// figures/measures.tsx), with links to each recording and to matching.
import type { JSX } from 'preact';
import { useState } from 'preact/hooks';
import type { Entity, SpeakerMeasures } from '@rapport/client';
import { measureOf } from '@rapport/analysis/render';
import type { Session } from '../api.ts';
import { APPEARANCE_TABLE, MeasureCell, MeasureHeader, measureText, measureTitle } from '../figures/measures.tsx';
import { ErrorNote, ScrollRegion, Section, fmtDate, useAsync } from '../ui.tsx';
import { personName } from './people.tsx';
import { UNITS } from '../media/voice.tsx';

interface Appearance {
  mediaId: string;
  speakerIndex: number;
  name: string;
  /** When the recording was uploaded: two recordings of one name are told apart by it. */
  createdAt: string | null;
  error: unknown;
}

/** The profile's figures: summed counts, speech-weighted rates (docs/analysis.md). */
const PROFILE = ['speechSec', 'turns', 'talkShare', 'speakingRateSylPerSec', 'pitchMedianHz'].map(measureOf);

/** At most this many recordings are read for their names. */
const MAX_READ = 20;

export function PersonPage({ session, id }: { session: Session; id: string }): JSX.Element {
  const [error, setError] = useState<unknown>(null);
  const person = useAsync((signal) => session.client.entities.retrieve(id, { signal }), [id]);
  // Each recording's name (the figures themselves are the API's, below).
  const apps = useAsync(async (signal) => {
    const p = await session.client.entities.retrieve(id, { signal });
    return Promise.all(p.appearances.slice(0, MAX_READ).map(async (a): Promise<Appearance> => {
      try {
        const m = await session.client.files.retrieve(a.mediaId, { signal });
        return { ...a, name: m.label ?? m.filename, createdAt: m.createdAt, error: null };
      } catch (err) {
        return { ...a, name: a.mediaId, createdAt: null, error: err };
      }
    }));
  }, [id]);
  // The person's profile over their analysed recordings and each appearance's measurements (GET /v1/entities/:id/metrics).
  const measured = useAsync((signal) => session.client.entities.metrics(id, { signal }).catch(() => null), [id]);
  const profile = measured.data?.metrics ?? null;
  const appearanceMetrics = (mediaId: string, speakerIndex: number): SpeakerMeasures | null =>
    measured.data?.appearances.find((x) => x.mediaId === mediaId && x.speakerIndex === speakerIndex)?.metrics ?? null;
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
          <div><dt>Recordings</dt><dd>{new Set(p.appearances.map((a) => a.mediaId)).size}</dd></div>
          {PROFILE.map((m) => (
            <div key={m.key} data-measure={m.key}><dt title={m.definition}>{measureTitle(m)}</dt><dd>{measured.loading ? '…' : measureText(m, profile)}</dd></div>
          ))}
        </dl>
        <dl class="legend" aria-label="Units">
          <div><dt>syllables/s</dt><dd>{UNITS.speaking}</dd></div>
          <div><dt>Hz</dt><dd>{UNITS.pitch}</dd></div>
        </dl>
        <p><a href={`#/matching?entity=${p.id}`}>Match {personName(p)} with others</a></p>
        <ErrorNote error={apps.error} />
        <ScrollRegion label="Appearances table">
          <table>
            <caption class="visually-hidden">Appearances</caption>
            <thead><tr><th scope="col">Recording</th><th scope="col">Speaker</th>{APPEARANCE_TABLE.map((m) => <MeasureHeader key={m.key} m={m} />)}</tr></thead>
            <tbody>
              {p.appearances.map((a) => {
                const r = rows.find((x) => x.mediaId === a.mediaId && x.speakerIndex === a.speakerIndex);
                const metrics = appearanceMetrics(a.mediaId, a.speakerIndex);
                return (
                  <tr key={`${a.mediaId}-${a.speakerIndex}`} data-media={a.mediaId} data-speaker={a.speakerIndex}>
                    <td><a href={`#/recordings/${a.mediaId}`}>{r?.name ?? a.mediaId}</a>{r?.createdAt ? <span class="hint"> · {fmtDate(r.createdAt)}</span> : null}</td>
                    <td>Speaker {a.speakerIndex + 1}</td>
                    {APPEARANCE_TABLE.map((m) => <MeasureCell key={m.key} m={m} metrics={metrics} />)}
                  </tr>
                );
              })}
            </tbody>
          </table>
        </ScrollRegion>
      </Section>
    </>
  );
}
