// Jobs: the list with status and type filters, updated live from the workspace's event stream
// (GET /v1/events through the SDK), cancel, and a link to each result.
import type { JSX } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import type { Job, JobStatus } from '@rapport/client';
import type { Session } from '../api.ts';
import { ConfirmButton, ErrorNote, Pager, ScrollRegion, Section, fmtDate, useAsync, useCursorPages } from '../ui.tsx';

export function JobsPage({ session }: { session: Session }): JSX.Element {
  const pages = useCursorPages();
  const [status, setStatus] = useState<JobStatus | ''>('');
  const [type, setType] = useState<'matching' | 'report' | ''>('');
  const [error, setError] = useState<unknown>(null);
  const [live, setLive] = useState<'connecting' | 'live' | 'off'>('connecting');
  const list = useAsync((signal) => session.client.jobs.list({
    limit: 20, ...(pages.cursor ? { cursor: pages.cursor } : {}), ...(status ? { status } : {}), ...(type ? { type } : {}),
  }, { signal }), [pages.cursor, status, type]);

  useEffect(() => {
    const ctl = new AbortController();
    void (async () => {
      try {
        setLive('live');
        for await (const ev of session.client.events.stream({ signal: ctl.signal })) {
          setRows(ev.job);
        }
      } catch {
        if (!ctl.signal.aborted) setLive('off');
      }
    })();
    return () => ctl.abort();
  }, []);

  const [updates, setUpdates] = useState<Record<string, Job>>({});
  const setRows = (j: Job): void => setUpdates((u) => ({ ...u, [j.id]: j }));
  const listed = list.data?.data ?? [];
  // Jobs created since the page was read come first (on the first page), then the page itself.
  const fresh = pages.page === 1 ? Object.values(updates).filter((j) => !listed.some((l) => l.id === j.id) && (!type || j.type === type)).sort((a, b) => b.createdAt.localeCompare(a.createdAt)) : [];
  const rows = [...fresh, ...listed.map((j) => updates[j.id] ?? j)].filter((j) => !status || j.status === status);

  return (
    <>
      <h1>Jobs</h1>
      <Section title="All jobs">
        <div class="row">
          <label for="job-status">Status</label>
          <select id="job-status" value={status} onChange={(e) => { setStatus(e.currentTarget.value as JobStatus | ''); pages.reset(); }}>
            <option value="">Any</option><option value="queued">Queued</option><option value="running">Running</option><option value="succeeded">Succeeded</option><option value="failed">Failed</option>
          </select>
          <label for="job-type">Type</label>
          <select id="job-type" value={type} onChange={(e) => { setType(e.currentTarget.value as 'matching' | 'report' | ''); pages.reset(); }}>
            <option value="">Any</option><option value="matching">Matching</option><option value="report">Report</option>
          </select>
          <span class="live" role="status">{live === 'live' ? 'Live updates on' : live === 'off' ? 'Live updates unavailable' : 'Connecting…'}</span>
        </div>
        <ErrorNote error={list.error} context="Could not list the jobs" />
        <ErrorNote error={error} />
        <ScrollRegion label="Jobs table">
          <table>
            <caption class="visually-hidden">Jobs, newest first</caption>
            <thead><tr><th scope="col">Job</th><th scope="col">Type</th><th scope="col">Status</th><th scope="col">Stage</th><th scope="col">Created</th><th scope="col">Result</th><th scope="col"><span class="visually-hidden">Actions</span></th></tr></thead>
            <tbody>
              {rows.map((j) => (
                <tr key={j.id} data-job={j.id}>
                  <td>{j.label ?? j.id}</td>
                  <td>{j.type}</td>
                  <td>{j.status}{j.error ? `: ${j.error.code}` : ''}</td>
                  <td><progress max={1} value={j.progress} aria-label={`Progress of ${j.label ?? j.id}`} /> {j.stage.replace(/_/g, ' ')}</td>
                  <td>{fmtDate(j.createdAt)}</td>
                  <td>{j.resultId ? <a href={`#/results/${j.type}/${j.resultId}`}>Open</a> : '–'}</td>
                  <td>{j.status === 'queued' || j.status === 'running' ? <ConfirmButton label="Cancel" question={`Cancel ${j.label ?? j.id}?`} onConfirm={async () => {
                    setError(null);
                    try {
                      setRows(await session.client.jobs.cancel(j.id));
                    } catch (err) {
                      setError(err);
                    }
                  }} /> : null}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </ScrollRegion>
        {rows.length === 0 && list.data ? <p>No jobs{status ? ` with status ${status}` : ''}.</p> : null}
        {list.data ? <Pager label="Jobs" page={pages.page} hasNext={!!list.data.nextCursor} onNext={() => list.data?.nextCursor && pages.next(list.data.nextCursor)} onPrev={pages.prev} /> : null}
      </Section>
    </>
  );
}
