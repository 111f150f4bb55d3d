// The dashboard's shell: sign-in, the navigation and a hash router (`#/recordings/med_…`), so the
// service serves one page at `/` and every view is a link. Pages live in pages/.
import { render } from 'preact';
import type { JSX } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import { forgetKey, signIn, storedKey } from './api.ts';
import type { Session } from './api.ts';
import { ErrorNote } from './ui.tsx';
import { RecordingsPage } from './pages/recordings.tsx';
import { RecordingPage } from './pages/recording.tsx';
import { PeoplePage } from './pages/people.tsx';
import { PersonPage } from './pages/person.tsx';
import { MatchingPage } from './pages/matching.tsx';
import { ResultPage } from './pages/result.tsx';
import { JobsPage } from './pages/jobs.tsx';
import { WorkspacePage } from './pages/workspace.tsx';

function useHash(): string {
  const [hash, setHash] = useState(location.hash);
  useEffect(() => {
    const on = (): void => setHash(location.hash);
    addEventListener('hashchange', on);
    return () => removeEventListener('hashchange', on);
  }, []);
  return hash;
}

function SignIn({ onSession }: { onSession: (s: Session) => void }): JSX.Element {
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);
  return (
    <main id="main" class="signin">
      <h1>Rapport</h1>
      <p>See who spoke when, how the floor moved and how voices converged. Sign in with an API key of your workspace.</p>
      <form onSubmit={async (e) => {
        e.preventDefault();
        const key = String(new FormData(e.currentTarget).get('apiKey') ?? '').trim();
        setBusy(true);
        setError(null);
        try {
          onSession(await signIn(key));
        } catch (err) {
          setError(err);
        } finally {
          setBusy(false);
        }
      }}>
        <label for="apiKey">API key</label>
        <input id="apiKey" name="apiKey" type="password" autocomplete="off" required placeholder="rk_…" />
        <p class="hint">Kept for this browser tab only, never in the address or in local storage.</p>
        <button type="submit" disabled={busy}>{busy ? 'Signing in…' : 'Sign in'}</button>
      </form>
      <ErrorNote error={error} context="Sign-in failed" />
    </main>
  );
}

const NAV: { href: string; label: string; admin?: boolean }[] = [
  { href: '#/recordings', label: 'Recordings' },
  { href: '#/people', label: 'People' },
  { href: '#/matching', label: 'Matching' },
  { href: '#/jobs', label: 'Jobs' },
  { href: '#/workspace', label: 'Workspace', admin: true },
];

/** Pages of one item are keyed by it: another item is a new page, never the last one's data beside the new one's error. */
function route(hash: string, session: Session): JSX.Element {
  const [path = '', query = ''] = hash.replace(/^#/, '').split('?');
  const parts = path.split('/').filter(Boolean).map(decodeURIComponent);
  const params = new URLSearchParams(query);
  const [head, id, sub] = parts;
  switch (head) {
    case undefined:
    case 'recordings':
      return id ? <RecordingPage key={id} session={session} id={id} /> : <RecordingsPage session={session} />;
    case 'people':
      return id ? <PersonPage key={id} session={session} id={id} /> : <PeoplePage session={session} />;
    case 'matching':
      return <MatchingPage session={session} params={params} />;
    case 'results':
      return <ResultPage key={`${id}/${sub}`} session={session} kind={id === 'report' ? 'report' : 'matching'} id={sub ?? ''} />;
    case 'jobs':
      return <JobsPage session={session} />;
    case 'workspace':
      return session.admin ? <WorkspacePage session={session} /> : <p>The workspace pages need an admin key.</p>;
    default:
      return <p>Nothing here. <a href="#/recordings">Go to the recordings</a>.</p>;
  }
}

function App(): JSX.Element {
  const [session, setSession] = useState<Session | null>(null);
  const [restoring, setRestoring] = useState(() => storedKey() !== null);
  const [restoreError, setRestoreError] = useState<unknown>(null);
  const hash = useHash();
  useEffect(() => {
    const key = storedKey();
    if (!key) return;
    signIn(key).then(setSession, (err: unknown) => {
      forgetKey();
      setRestoreError(err);
    }).finally(() => setRestoring(false));
  }, []);
  useEffect(() => {
    const title = (hash.replace(/^#\//, '').split(/[/?]/)[0] || 'recordings');
    document.title = `${title[0]?.toUpperCase()}${title.slice(1)} · Rapport`;
  }, [hash]);
  if (restoring) return <p class="loading">Signing in…</p>;
  if (!session) {
    return (
      <>
        <SignIn onSession={setSession} />
        <ErrorNote error={restoreError} context="Your saved session ended" />
      </>
    );
  }
  const current = hash.replace(/^#/, '').split(/[/?]/)[1] || 'recordings';
  return (
    <>
      <a class="skip" href="#main" onClick={(e) => { e.preventDefault(); document.getElementById('main')?.focus(); }}>Skip to content</a>
      <header class="top">
        <span class="brand">Rapport</span>
        <nav aria-label="Main">
          <ul>
            {NAV.filter((n) => !n.admin || session.admin).map((n) => (
              <li key={n.href}><a href={n.href} aria-current={n.href === `#/${current}` ? 'page' : undefined}>{n.label}</a></li>
            ))}
          </ul>
        </nav>
        <span class="who">{session.workspaceName ? `${session.workspaceName} · admin` : 'standard key'}</span>
        <button type="button" onClick={() => {
          forgetKey();
          setSession(null);
          location.hash = '';
        }}>Sign out</button>
      </header>
      <main id="main" tabIndex={-1}>{route(hash, session)}</main>
    </>
  );
}

const root = document.getElementById('app');
if (root) {
  root.textContent = '';
  render(<App />, root);
}
