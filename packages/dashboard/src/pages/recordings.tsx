// Recordings: upload (drop or pick several files, a progress bar each, then the analysis stages
// live from the media event stream), the list with search and paging (its analysis column live
// too), delete with confirmation.
import type { JSX } from 'preact';
import { useState } from 'preact/hooks';
import type { Media, SpeakerHints } from '@rapport/client';
import { newClient, type Session } from '../api.ts';
import { progressFetch } from '../upload.ts';
import { HintsFields, cleanHints } from '../hints.tsx';
import { AnalysisStages, useLiveMedia, type LiveMedia } from '../media/live.tsx';
import { ConfirmButton, ErrorNote, Pager, ScrollRegion, Section, fmtBytes, fmtDate, fmtSec, useAsync, useCursorPages } from '../ui.tsx';

const PAGE = 20;

interface UploadItem {
  key: number;
  file: File;
  loaded: number;
  total: number;
  media: Media | null;
  error: unknown;
}

let nextKey = 1;

/** The media's analysis as a phrase (status, speakers found, or the failure). */
export function analysisText(m: Media): string {
  const a = m.analysis;
  // Analysed from its cues (decisions §19): its speakers are the names it gives.
  if (m.kind === 'transcript') return a.status === 'ready' ? `transcript · ${a.speakers.length} speaker${a.speakers.length === 1 ? '' : 's'}, no audio` : 'transcript';
  if (a.status === 'ready') return `ready · ${a.speakers.length} speaker${a.speakers.length === 1 ? '' : 's'}`;
  if (a.status === 'failed') return `failed${a.error ? `: ${a.error.message}` : ''}`;
  if (a.status === 'pending') return 'analysis queued';
  return `analysing · ${(a.stage ?? 'detecting_speech').replace(/_/g, ' ')} · ${Math.round(a.progress * 100)}%`;
}

function Uploads({ session, live, onChange }: { session: Session; live: LiveMedia; onChange: () => void }): JSX.Element {
  const [items, setItems] = useState<UploadItem[]>([]);
  const [hints, setHints] = useState<SpeakerHints>({});
  const [over, setOver] = useState(false);
  const update = (key: number, patch: Partial<UploadItem>): void => setItems((xs) => xs.map((x) => (x.key === key ? { ...x, ...patch } : x)));

  const start = (files: File[]): void => {
    const h = cleanHints(hints);
    const fresh = files.map((file) => ({ key: nextKey++, file, loaded: 0, total: file.size, media: null, error: null }));
    setItems((xs) => [...fresh, ...xs]);
    for (const item of fresh) {
      const client = newClient(session.client.http.apiKey, progressFetch((loaded, total) => update(item.key, { loaded, total })));
      client.files.upload(item.file, { ...h }).then((media) => {
        setItems((xs) => xs.map((x) => (x.key === item.key ? { ...x, media, loaded: x.total } : x)));
        onChange();
      }, (error: unknown) => update(item.key, { error }));
    }
  };

  return (
    <Section title="Upload">
      <div class={`drop${over ? ' over' : ''}`}
        onDragOver={(e) => { e.preventDefault(); setOver(true); }}
        onDragLeave={() => setOver(false)}
        onDrop={(e) => {
          e.preventDefault();
          setOver(false);
          start(Array.from(e.dataTransfer?.files ?? []));
        }}>
        <p>Drop recordings (audio, video) or transcripts here, or</p>
        <label class="button" for="upload-files">Choose files</label>
        <input id="upload-files" class="visually-hidden" type="file" multiple onChange={(e) => {
          start(Array.from(e.currentTarget.files ?? []));
          e.currentTarget.value = '';
        }} />
        <HintsFields idPrefix="upload" value={hints} onChange={setHints} />
      </div>
      <ErrorNote error={live.error} context="The live analysis stream stopped (reload the page to follow analyses again)" />
      {items.length ? (
        <ul class="uploads" aria-label="Uploads">
          {items.map((i) => {
            // The stream's state is newer than the upload's answer (events may even come first).
            const media = i.media ? (live.latest.get(i.media.id) ?? i.media) : null;
            return (
              <li key={i.key} class="upload" data-media={media?.id}>
                <span class="name">{i.file.name}</span>
                <progress max={i.total || 1} value={i.loaded} aria-label={`Upload of ${i.file.name}`}>{Math.round((i.loaded / (i.total || 1)) * 100)}%</progress>
                <span class="status" aria-live="polite">
                  {i.error ? 'upload failed' : media ? <a href={`#/recordings/${media.id}`}>{analysisText(media)}</a> : `uploading ${Math.round((i.loaded / (i.total || 1)) * 100)}%`}
                </span>
                {media && media.kind !== 'transcript' ? <AnalysisStages media={media} seen={live.seen.get(media.id) ?? []} /> : null}
                <ErrorNote error={i.error} context={i.file.name} />
              </li>
            );
          })}
        </ul>
      ) : null}
    </Section>
  );
}

/** The API has no text search over media: a search reads pages until it has a page of matches. */
async function searchMedia(session: Session, q: string, signal: AbortSignal): Promise<{ data: Media[]; nextCursor: string | null }> {
  const needle = q.toLowerCase();
  const data: Media[] = [];
  for await (const m of session.client.files.list({ limit: 100 }, { signal })) {
    if (`${m.filename} ${m.label ?? ''} ${m.id}`.toLowerCase().includes(needle)) data.push(m);
    if (data.length >= 100) break;
  }
  return { data, nextCursor: null };
}

export function RecordingsPage({ session }: { session: Session }): JSX.Element {
  const pages = useCursorPages();
  const [q, setQ] = useState('');
  const [actionError, setActionError] = useState<unknown>(null);
  // One stream for the page: uploads' stages and the list's analysis column, live.
  const live = useLiveMedia(session, () => list.reload());
  const list = useAsync(async (signal) => {
    if (q.trim()) return searchMedia(session, q.trim(), signal);
    const page = await session.client.files.list({ limit: PAGE, ...(pages.cursor ? { cursor: pages.cursor } : {}) }, { signal });
    return { data: page.data, nextCursor: page.nextCursor };
  }, [pages.cursor, q]);

  return (
    <>
      <h1>Recordings</h1>
      <Uploads session={session} live={live} onChange={list.reload} />
      <Section title="All recordings">
        <form role="search" class="row" onSubmit={(e) => {
          e.preventDefault();
          setQ(String(new FormData(e.currentTarget).get('q') ?? ''));
          pages.reset();
        }}>
          <label for="rec-q">Search by name</label>
          <input id="rec-q" name="q" type="search" />
          <button type="submit">Search</button>
        </form>
        <ErrorNote error={list.error} context="Could not list the recordings" />
        <ErrorNote error={actionError} />
        {list.data ? (
          <>
            <ScrollRegion label="Recordings table">
              <table>
                <caption class="visually-hidden">Recordings, newest first</caption>
                <thead><tr><th scope="col">Name</th><th scope="col">Kind</th><th scope="col">Length</th><th scope="col">Size</th><th scope="col">Analysis</th><th scope="col">Uploaded</th><th scope="col"><span class="visually-hidden">Actions</span></th></tr></thead>
                <tbody>
                  {list.data.data.map((row) => live.latest.get(row.id) ?? row).map((m) => (
                    <tr key={m.id}>
                      <td><a href={`#/recordings/${m.id}`}>{m.label ?? m.filename}</a></td>
                      <td>{m.kind}{m.hasTranscript && m.kind !== 'transcript' ? ' + transcript' : ''}</td>
                      <td>{fmtSec(m.durationSec)}</td>
                      <td>{fmtBytes(m.sizeBytes)}</td>
                      <td>{analysisText(m)}</td>
                      <td>{fmtDate(m.createdAt)}</td>
                      <td><ConfirmButton label="Delete" question={`Delete ${m.filename}?`} onConfirm={async () => {
                        setActionError(null);
                        try {
                          await session.client.files.delete(m.id);
                          list.reload();
                        } catch (err) {
                          setActionError(err);
                        }
                      }} /></td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </ScrollRegion>
            {list.data.data.length === 0 ? <p>{q ? `No recording matches “${q}”.` : 'No recordings yet: upload one above.'}</p> : null}
            {q ? null : <Pager label="Recordings" page={pages.page} hasNext={!!list.data.nextCursor} onNext={() => list.data?.nextCursor && pages.next(list.data.nextCursor)} onPrev={pages.prev} />}
          </>
        ) : list.loading ? <p class="loading">Loading…</p> : null}
      </Section>
    </>
  );
}
