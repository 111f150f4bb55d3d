// A matching or report result rendered from its document: cards with their icons, text, grids,
// and the illustrations drawn by the shared renderer from the evidence; copy or download the
// Markdown; rate it.
import type { JSX } from 'preact';
import { useMemo, useState } from 'preact/hooks';
import type { MatchingEvidence, ResultDocument as SharedDocument } from '@rapport/analysis/render';
import { APIError } from '@rapport/client';
import type { Block, CardBlock, ResultDocument } from '@rapport/client';
import {
  Activity, AudioLines, Clock, Gauge, GitCompare, Languages, MessageCircle, Puzzle, Repeat, Reply, Scale, ShieldCheck, Timer,
  TrendingUp, Users, Volume2, Waves, Zap,
} from 'lucide-preact';
import type { Session } from '../api.ts';
import { Illustration, illustrationsOf } from '../figures/illustrations.tsx';
import { ErrorNote, useAsync } from '../ui.tsx';
import { Downloads, recordingDownloads } from '../downloads.tsx';

// The Lucide names the documents use (packages/analysis/src/documents/icons.ts).
const ICONS: Record<string, typeof Users> = {
  users: Users, gauge: Gauge, clock: Clock, repeat: Repeat, activity: Activity, 'audio-lines': AudioLines, 'volume-2': Volume2,
  timer: Timer, zap: Zap, 'message-circle': MessageCircle, reply: Reply, scale: Scale, waves: Waves, languages: Languages,
  'git-compare': GitCompare, puzzle: Puzzle, 'trending-up': TrendingUp, 'shield-check': ShieldCheck,
};

function Card({ card }: { card: CardBlock }): JSX.Element {
  const Icon = ICONS[card.icon];
  return (
    <div class="card">
      <h4>{Icon ? <Icon size={20} aria-hidden="true" /> : null} {card.title}</h4>
      <p>{card.content}</p>
    </div>
  );
}

function Blocks({ blocks, render }: { blocks: Block[]; render: (b: Block) => JSX.Element | null }): JSX.Element {
  return <>{blocks.map((b, i) => <div key={i} class={`block block-${b.type}`}>{render(b)}</div>)}</>;
}

export function DocumentView({ doc, evidence, session }: { doc: ResultDocument; evidence: MatchingEvidence | null; session: Session }): JSX.Element {
  const diarization = (id: string) => session.client.files.diarization(id);
  // The SDK's document type and the renderer's are the same shape (interface-spec's result document).
  const drawn = useMemo(() => (evidence ? illustrationsOf(doc as unknown as SharedDocument, evidence) : new Map<object, never>()), [doc, evidence]);
  const render = (b: Block): JSX.Element | null => {
    switch (b.type) {
      case 'card': return <Card card={b} />;
      case 'text': return <>{b.title ? <h4>{b.title}</h4> : null}{b.content.split('\n\n').map((p, i) => <p key={i}>{p}</p>)}</>;
      case 'grid': return <div class={`grid cols-${b.columns}`}>{b.items.map((c, i) => <Card key={i} card={c} />)}</div>;
      case 'illustration': return <Illustration variant={b.variant} drawn={drawn.get(b) ?? null} evidence={evidence} diarization={diarization} />;
      default: return null;
    }
  };
  return (
    <article class="document">
      <h2>{doc.title}</h2>
      <p class="summary">{doc.summary}</p>
      {doc.sections.map((s, i) => {
        const c = s.section_content;
        const blocks = Array.isArray(c) ? c : 'type' in c ? [c as Block] : [];
        return (
          <section key={i} aria-label={s.section_title}>
            <h3>{s.section_title}</h3>
            <Blocks blocks={blocks} render={render} />
          </section>
        );
      })}
    </article>
  );
}

function Feedback({ session, resultId }: { session: Session; resultId: string }): JSX.Element {
  const [error, setError] = useState<unknown>(null);
  const [sent, setSent] = useState('');
  return (
    <form class="feedback" onSubmit={async (e) => {
      e.preventDefault();
      const f = new FormData(e.currentTarget);
      const comment = String(f.get('comment') ?? '').trim();
      setError(null);
      try {
        const fb = await session.client.feedback.create({ resultId, rating: Number(f.get('rating')) as 1 | 2 | 3 | 4 | 5, ...(comment ? { comment } : {}) });
        setSent(`Thank you: feedback ${fb.id} recorded.`);
      } catch (err) {
        setError(err);
      }
    }}>
      <fieldset class="row">
        <legend>How useful was this?</legend>
        {[1, 2, 3, 4, 5].map((r) => (
          <span key={r}><input type="radio" name="rating" id={`rating-${r}`} value={r} required /><label for={`rating-${r}`}>{r}</label></span>
        ))}
      </fieldset>
      <label for="fb-comment">Comment (optional)</label>
      <textarea id="fb-comment" name="comment" maxLength={2000} rows={2} />
      <button type="submit">Send feedback</button>
      <p role="status">{sent}</p>
      <ErrorNote error={error} context="Feedback not sent" />
    </form>
  );
}

/** The recordings a result's members were picked from (media targets), for their measurements. */
function recordingsOf(payload: { target: { source: unknown }; group?: { source: unknown }[] }): string[] {
  const ids = [payload.target, ...(payload.group ?? [])].map((m) => (m.source as { type?: string; mediaId?: string }))
    .filter((s) => s.type === 'media_target' && typeof s.mediaId === 'string').map((s) => s.mediaId as string);
  return [...new Set(ids)];
}

export function ResultPage({ session, kind, id }: { session: Session; kind: 'matching' | 'report'; id: string }): JSX.Element {
  const [copied, setCopied] = useState('');
  const data = useAsync(async (signal) => {
    // A result stored without evidence answers 404 there: its figures then say so.
    const noEvidence = (err: unknown) => {
      if (err instanceof APIError && err.status === 404) return null;
      throw err;
    };
    const [payload, evidence] = kind === 'report'
      ? await Promise.all([session.client.reports.retrieve(id, { signal }), session.client.reports.evidence(id, { signal }).catch(noEvidence)])
      : await Promise.all([session.client.matching.retrieve(id, { signal }), session.client.matching.evidence(id, { signal }).catch(noEvidence)]);
    return { payload, evidence: evidence as MatchingEvidence | null };
  }, [kind, id]);
  if (!data.data) return <><ErrorNote error={data.error} context="Could not read the result" />{data.loading ? <p class="loading">Loading…</p> : null}</>;
  const { payload, evidence } = data.data;
  const md = payload.markdown ?? '';
  return (
    <>
      <h1>{payload.label ?? (kind === 'matching' ? 'Matching' : 'Report')}</h1>
      <div class="row">
        <button type="button" disabled={!md} onClick={async () => {
          try {
            await navigator.clipboard.writeText(md);
            setCopied('Markdown copied.');
          } catch {
            setCopied('The browser refused the clipboard; use Download instead.');
          }
        }}>Copy Markdown</button>
        <a class="button" download={`${payload.id}.md`} href={`data:text/markdown;charset=utf-8,${encodeURIComponent(md)}`}>Download Markdown</a>
        <span role="status">{copied}</span>
      </div>
      {payload.json ? (
        <Downloads label="Download this result" items={[{
          label: 'HTML report',
          filename: `${payload.id}.html`,
          type: 'text/html',
          fetch: () => (kind === 'report' ? session.client.reports.html(payload.id) : session.client.matching.html(payload.id)),
        }, ...recordingsOf(payload).flatMap((m, i, all) => recordingDownloads(session, m, m, all.length > 1 ? ` of ${m}` : ' of the recording'))]} />
      ) : null}
      {payload.json ? <DocumentView doc={payload.json} evidence={evidence} session={session} /> : <p>This result has no document.</p>}
      <Feedback session={session} resultId={payload.id} />
    </>
  );
}
