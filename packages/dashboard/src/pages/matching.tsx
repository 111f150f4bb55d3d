// Matching and reports from pickers: the target and each group member are a person, or a
// recording with a selector (a speaker picked by name, the dominant voice, a hint, a time range).
// The job's progress is followed live (SSE through the SDK) and the result opens when it ends.
import type { JSX } from 'preact';
import { useState } from 'preact/hooks';
import { recordingName, type Entity, type Job, type Media, type Member, type Selector } from '@rapport/client';
import type { Session } from '../api.ts';
import { ErrorNote, Section, useAsync } from '../ui.tsx';
import { personName } from './people.tsx';

interface Pick {
  kind: 'entity' | 'media';
  entityId: string;
  mediaId: string;
  strategy: 'speaker_index' | 'dominant' | 'magic_hint' | 'timerange';
  speaker: number;
  hint: string;
  start: string;
  end: string;
}

const blank = (over: Partial<Pick> = {}): Pick => ({ kind: 'media', entityId: '', mediaId: '', strategy: 'speaker_index', speaker: 0, hint: '', start: '', end: '', ...over });

export function toMember(p: Pick): Member {
  if (p.kind === 'entity') return { type: 'entity_id', entityId: p.entityId };
  let selector: Selector;
  switch (p.strategy) {
    case 'speaker_index': selector = { strategy: 'speaker_index', speaker_index: p.speaker }; break;
    case 'magic_hint': selector = { strategy: 'magic_hint', hint: p.hint }; break;
    case 'timerange': selector = { strategy: 'timerange', timerange: { start_seconds: p.start === '' ? null : Number(p.start), end_seconds: p.end === '' ? null : Number(p.end) } }; break;
    default: selector = { strategy: 'dominant' };
  }
  return { type: 'media_target', mediaId: p.mediaId, selector };
}

function MemberPicker({ id, legend, value, onChange, people, recordings, onRemove }: {
  id: string; legend: string; value: Pick; onChange: (p: Pick) => void; people: Entity[]; recordings: Media[]; onRemove?: () => void;
}): JSX.Element {
  const media = recordings.find((m) => m.id === value.mediaId);
  const set = (patch: Partial<Pick>): void => onChange({ ...value, ...patch });
  return (
    <fieldset class="member">
      <legend>{legend}</legend>
      <label for={`${id}-kind`}>Who</label>
      <select id={`${id}-kind`} value={value.kind} onChange={(e) => set({ kind: e.currentTarget.value as Pick['kind'] })}>
        <option value="media">A speaker in a recording</option>
        <option value="entity">A person</option>
      </select>
      {value.kind === 'entity' ? (
        <>
          <label for={`${id}-entity`}>Person</label>
          <select id={`${id}-entity`} value={value.entityId} required onChange={(e) => set({ entityId: e.currentTarget.value })}>
            <option value="">Choose…</option>
            {people.filter((p) => p.enough).map((p) => <option key={p.id} value={p.id}>{personName(p)}</option>)}
          </select>
        </>
      ) : (
        <>
          <label for={`${id}-media`}>Recording</label>
          <select id={`${id}-media`} value={value.mediaId} required onChange={(e) => {
            // The first voice offered: speakers with too little speech are not (decisions §16).
            const mediaId = e.currentTarget.value;
            const first = recordings.find((m) => m.id === mediaId)?.analysis.speakers.find((s) => s.enough);
            set({ mediaId, speaker: first?.index ?? 0 });
          }}>
            <option value="">Choose…</option>
            {recordings.map((m) => <option key={m.id} value={m.id}>{recordingName(m)}</option>)}
          </select>
          <label for={`${id}-strategy`}>Which voice</label>
          <select id={`${id}-strategy`} value={value.strategy} onChange={(e) => set({ strategy: e.currentTarget.value as Pick['strategy'] })}>
            <option value="speaker_index">A speaker</option>
            <option value="dominant">Whoever speaks most</option>
            <option value="magic_hint">Described in words</option>
            <option value="timerange">Whoever speaks most in a time range</option>
          </select>
          {value.strategy === 'speaker_index' ? (
            <>
              <label for={`${id}-speaker`}>Speaker</label>
              <select id={`${id}-speaker`} value={String(value.speaker)} onChange={(e) => set({ speaker: Number(e.currentTarget.value) })}>
                {(media?.analysis.speakers ?? []).filter((s) => s.enough).map((s) => <option key={s.index} value={String(s.index)}>{s.label ?? `Speaker ${s.index + 1}`}</option>)}
                {media && media.analysis.speakers.length === 0 ? <option value="0">Speaker 1 (analysis not ready)</option> : null}
              </select>
            </>
          ) : null}
          {value.strategy === 'magic_hint' ? (
            <><label for={`${id}-hint`}>Description</label><input id={`${id}-hint`} value={value.hint} required maxLength={1024} placeholder="the person who opens the call" onInput={(e) => set({ hint: e.currentTarget.value })} /></>
          ) : null}
          {value.strategy === 'timerange' ? (
            <>
              <label for={`${id}-start`}>From (s)</label><input id={`${id}-start`} type="number" min={0} step="any" value={value.start} onInput={(e) => set({ start: e.currentTarget.value })} />
              <label for={`${id}-end`}>To (s)</label><input id={`${id}-end`} type="number" min={0} step="any" value={value.end} onInput={(e) => set({ end: e.currentTarget.value })} />
            </>
          ) : null}
        </>
      )}
      {onRemove ? <button type="button" onClick={onRemove}>Remove {legend.toLowerCase()}</button> : null}
    </fieldset>
  );
}

export function MatchingPage({ session, params }: { session: Session; params: URLSearchParams }): JSX.Element {
  const choices = useAsync(async (signal) => {
    const [people, recordings] = await Promise.all([
      session.client.entities.list({ limit: 100 }, { signal }),
      session.client.files.list({ limit: 100 }, { signal }),
    ]);
    return { people: people.data, recordings: recordings.data.filter((m) => m.kind !== 'transcript') };
  }, []);
  const first = params.get('entity') ? blank({ kind: 'entity', entityId: params.get('entity') ?? '' })
    : blank({ mediaId: params.get('media') ?? '', speaker: Number(params.get('speaker') ?? 0) });
  const [kind, setKind] = useState<'matching' | 'report'>('matching');
  const [target, setTarget] = useState<Pick>(first);
  const [group, setGroup] = useState<Pick[]>([blank({ mediaId: params.get('media') ?? '', speaker: params.get('speaker') === '0' ? 1 : 0 })]);
  const [label, setLabel] = useState('');
  const [webhook, setWebhook] = useState('');
  const [job, setJob] = useState<Job | null>(null);
  const [error, setError] = useState<unknown>(null);
  const people = choices.data?.people ?? [];
  const recordings = choices.data?.recordings ?? [];

  const submit = async (e: Event): Promise<void> => {
    e.preventDefault();
    setError(null);
    setJob(null);
    try {
      const common = { target: toMember(target), ...(label ? { label } : {}), ...(webhook ? { webhook: { url: webhook } } : {}) };
      const receipt = kind === 'matching'
        ? await session.client.matching.create({ ...common, group: group.map(toMember) })
        : await session.client.reports.create(common);
      const done = await session.client.jobs.wait(receipt.jobId, { onUpdate: setJob, pollIntervalMs: 1000 });
      setJob(done);
      if (done.resultId) location.hash = `#/results/${kind}/${done.resultId}`;
    } catch (err) {
      setError(err);
    }
  };

  return (
    <>
      <h1>Matching and reports</h1>
      <ErrorNote error={choices.error} context="Could not read people and recordings" />
      <form onSubmit={(e) => void submit(e)}>
        <Section title="What to make">
          <fieldset class="row">
            <legend>Kind</legend>
            <input type="radio" id="kind-matching" name="kind" checked={kind === 'matching'} onChange={() => setKind('matching')} />
            <label for="kind-matching">Matching: how the target fits each member of a group</label>
            <input type="radio" id="kind-report" name="kind" checked={kind === 'report'} onChange={() => setKind('report')} />
            <label for="kind-report">Report: one person's profile</label>
          </fieldset>
          <MemberPicker id="target" legend="Target" value={target} onChange={setTarget} people={people} recordings={recordings} />
          {kind === 'matching' ? (
            <>
              {group.map((g, i) => (
                <MemberPicker key={i} id={`group-${i}`} legend={`Member ${i + 1}`} value={g} people={people} recordings={recordings}
                  onChange={(p) => setGroup((xs) => xs.map((x, j) => (j === i ? p : x)))}
                  {...(group.length > 1 ? { onRemove: () => setGroup((xs) => xs.filter((_, j) => j !== i)) } : {})} />
              ))}
              {group.length < 20 ? <button type="button" onClick={() => setGroup((xs) => [...xs, blank()])}>Add a member</button> : null}
            </>
          ) : null}
          <div class="row">
            <label for="job-label">Label (optional)</label>
            <input id="job-label" value={label} maxLength={64} onInput={(e) => setLabel(e.currentTarget.value)} />
            <label for="job-webhook">Webhook URL (optional)</label>
            <input id="job-webhook" type="url" value={webhook} onInput={(e) => setWebhook(e.currentTarget.value)} />
          </div>
          <button type="submit" class="primary">Start</button>
        </Section>
      </form>
      {job ? (
        <Section title="Progress">
          <progress max={1} value={job.progress} aria-label="Job progress" />
          <p role="status">{job.id}: {job.status}, {job.stage.replace(/_/g, ' ')} ({Math.round(job.progress * 100)}%)</p>
          {job.error ? <p class="error">{job.error.code}: {job.error.message}</p> : null}
        </Section>
      ) : null}
      <ErrorNote error={error} context="The job could not run" />
    </>
  );
}
