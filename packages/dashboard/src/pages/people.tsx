// People (entities): the list with labels, tags and appearances, searched by name or tag; merge
// several into one.
import type { JSX } from 'preact';
import { useState } from 'preact/hooks';
import type { Session } from '../api.ts';
import { ErrorNote, Pager, ScrollRegion, Section, fmtSec, useAsync, useCursorPages } from '../ui.tsx';

/** Decisions §16: the label, else the service's name after the first appearance ("Speaker 2 in interview.wav"), never an id. */
export function personName(e: { label: string | null; name: string }): string {
  return e.label ?? e.name;
}

export function PeoplePage({ session }: { session: Session }): JSX.Element {
  const pages = useCursorPages();
  const [filter, setFilter] = useState<{ q: string; tag: string }>({ q: '', tag: '' });
  const [selected, setSelected] = useState<string[]>([]);
  const [into, setInto] = useState<string>('');
  const [error, setError] = useState<unknown>(null);
  const [note, setNote] = useState('');
  const list = useAsync((signal) => session.client.entities.list({
    limit: 20,
    ...(pages.cursor ? { cursor: pages.cursor } : {}),
    ...(filter.q ? { q: filter.q } : {}),
    ...(filter.tag ? { tag: filter.tag } : {}),
  }, { signal }), [pages.cursor, filter]);
  const page = list.data;

  return (
    <>
      <h1>People</h1>
      <p>Each voice the analysis recognises across recordings is a person. Name them, tag them, and merge two that are the same.</p>
      <Section title="All people">
        <form role="search" class="row" onSubmit={(e) => {
          e.preventDefault();
          const f = new FormData(e.currentTarget);
          setFilter({ q: String(f.get('q') ?? '').trim(), tag: String(f.get('tag') ?? '').trim() });
          pages.reset();
        }}>
          <label for="people-q">Name contains</label>
          <input id="people-q" name="q" type="search" />
          <label for="people-tag">Tag</label>
          <input id="people-tag" name="tag" type="search" />
          <button type="submit">Search</button>
        </form>
        <ErrorNote error={list.error} context="Could not list the people" />
        {page ? (
          <>
            <ScrollRegion label="People table">
              <table>
                <caption class="visually-hidden">People</caption>
                <thead><tr><th scope="col">Select</th><th scope="col">Name</th><th scope="col">Tags</th><th scope="col">Speech</th><th scope="col">Recordings</th></tr></thead>
                <tbody>
                  {page.data.map((p) => (
                    <tr key={p.id}>
                      <td><input type="checkbox" id={`sel-${p.id}`} checked={selected.includes(p.id)} aria-label={`Select ${personName(p)}`}
                        onChange={(e) => setSelected((s) => (e.currentTarget.checked ? [...s, p.id] : s.filter((x) => x !== p.id)))} /></td>
                      <td><a href={`#/people/${p.id}`}>{personName(p)}</a></td>
                      <td>{p.tags.map((t) => <span key={t} class="tag">{t}</span>)}</td>
                      <td>{fmtSec(p.speechSec)}</td>
                      <td>{new Set(p.appearances.map((a) => a.mediaId)).size}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </ScrollRegion>
            {page.data.length === 0 ? <p>No one yet: people appear when recordings are analysed.</p> : null}
            <Pager label="People" page={pages.page} hasNext={!!page.nextCursor} onNext={() => page.nextCursor && pages.next(page.nextCursor)} onPrev={pages.prev} />
          </>
        ) : list.loading ? <p class="loading">Loading…</p> : null}
      </Section>
      <Section title="Merge">
        {selected.length < 2 ? <p>Select two or more people above to merge them into one.</p> : (
          <form onSubmit={async (e) => {
            e.preventDefault();
            const keep = into || selected[0]!;
            setError(null);
            try {
              const merged = await session.client.entities.merge({ into: keep, from: selected.filter((x) => x !== keep) });
              setNote(`Merged into ${personName(merged)}.`);
              setSelected([]);
              setInto('');
              list.reload();
            } catch (err) {
              setError(err);
            }
          }}>
            <fieldset>
              <legend>Keep which one?</legend>
              {selected.map((id) => {
                const p = page?.data.find((x) => x.id === id);
                return (
                  <div key={id}>
                    <input type="radio" name="into" id={`into-${id}`} value={id} checked={(into || selected[0]) === id} onChange={() => setInto(id)} />
                    <label for={`into-${id}`}>{p ? personName(p) : id}</label>
                  </div>
                );
              })}
            </fieldset>
            <button type="submit">Merge {selected.length} people</button>
          </form>
        )}
        <p role="status">{note}</p>
        <ErrorNote error={error} context="Merge failed" />
      </Section>
    </>
  );
}
