// Workspace administration (admin keys): credits and transactions, API keys (a new key is shown
// once), the webhook signing secret (reveal, rotate), webhook deliveries with their attempts and
// redelivery.
import type { JSX } from 'preact';
import { useState } from 'preact/hooks';
import type { CreatedApiKey, SigningSecret, WebhookDelivery } from '@rapport/client';
import type { Session } from '../api.ts';
import { ConfirmButton, ErrorNote, Pager, ScrollRegion, Section, fmtDate, useAsync, useCursorPages } from '../ui.tsx';

function Credits({ session }: { session: Session }): JSX.Element {
  const pages = useCursorPages();
  const balance = useAsync((signal) => session.client.credits.balance({ signal }), []);
  const txs = useAsync((signal) => session.client.credits.transactions({ limit: 10, ...(pages.cursor ? { cursor: pages.cursor } : {}) }, { signal }), [pages.cursor]);
  return (
    <Section title="Credits">
      <ErrorNote error={balance.error ?? txs.error} />
      {balance.data ? (
        <dl class="figures">
          <div><dt>Balance</dt><dd>{balance.data.balance}</dd></div>
          <div><dt>Reserved</dt><dd>{balance.data.reserved}</dd></div>
          <div><dt>Available</dt><dd>{balance.data.available}</dd></div>
        </dl>
      ) : null}
      <ScrollRegion label="Transactions table">
        <table>
          <caption>Transactions</caption>
          <thead><tr><th scope="col">When</th><th scope="col">Kind</th><th scope="col">Amount</th><th scope="col">Balance after</th><th scope="col">For</th></tr></thead>
          <tbody>
            {(txs.data?.data ?? []).map((t) => (
              <tr key={t.id}><td>{fmtDate(t.createdAt)}</td><td>{t.kind}</td><td>{t.amount}</td><td>{t.balanceAfter}</td><td>{t.jobId ?? t.mediaId ?? '–'}</td></tr>
            ))}
          </tbody>
        </table>
      </ScrollRegion>
      {txs.data ? <Pager label="Transactions" page={pages.page} hasNext={!!txs.data.nextCursor} onNext={() => txs.data?.nextCursor && pages.next(txs.data.nextCursor)} onPrev={pages.prev} /> : null}
    </Section>
  );
}

function Keys({ session }: { session: Session }): JSX.Element {
  const keys = useAsync((signal) => session.client.workspace.keys.list({ limit: 100 }, { signal }), []);
  const [created, setCreated] = useState<CreatedApiKey | null>(null);
  const [error, setError] = useState<unknown>(null);
  return (
    <Section title="API keys">
      <ErrorNote error={keys.error ?? error} />
      <ScrollRegion label="API keys table">
        <table>
          <caption class="visually-hidden">API keys</caption>
          <thead><tr><th scope="col">Name</th><th scope="col">Scope</th><th scope="col">Ends with</th><th scope="col">Created</th><th scope="col">Revoked</th><th scope="col"><span class="visually-hidden">Actions</span></th></tr></thead>
          <tbody>
            {(keys.data?.data ?? []).map((k) => (
              <tr key={k.id} data-key={k.id}>
                <td>{k.name ?? k.id}</td><td>{k.scope}</td><td><code>…{k.hint}</code></td><td>{fmtDate(k.createdAt)}</td><td>{k.revokedAt ? fmtDate(k.revokedAt) : 'live'}</td>
                <td>{k.revokedAt ? null : <ConfirmButton label="Revoke" question={`Revoke ${k.name ?? k.id}?`} onConfirm={async () => {
                  setError(null);
                  try {
                    await session.client.workspace.keys.revoke(k.id);
                    keys.reload();
                  } catch (err) {
                    setError(err);
                  }
                }} />}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </ScrollRegion>
      <form class="row" onSubmit={async (e) => {
        e.preventDefault();
        const f = new FormData(e.currentTarget);
        const name = String(f.get('name') ?? '').trim();
        setError(null);
        try {
          setCreated(await session.client.workspace.keys.create({ scope: f.get('scope') === 'admin' ? 'admin' : 'standard', ...(name ? { name } : {}) }));
          keys.reload();
        } catch (err) {
          setError(err);
        }
      }}>
        <label for="key-name">Name</label>
        <input id="key-name" name="name" maxLength={64} />
        <label for="key-scope">Scope</label>
        <select id="key-scope" name="scope"><option value="standard">standard</option><option value="admin">admin</option></select>
        <button type="submit">Create key</button>
      </form>
      {created ? (
        <div class="notice" role="status">
          <p>The new key, shown this once: copy it now.</p>
          <output id="new-key"><code>{created.apiKey}</code></output>
        </div>
      ) : null}
    </Section>
  );
}

function Secret({ session }: { session: Session }): JSX.Element {
  const [secret, setSecret] = useState<SigningSecret | null>(null);
  const [error, setError] = useState<unknown>(null);
  const run = async (f: () => Promise<SigningSecret>): Promise<void> => {
    setError(null);
    try {
      setSecret(await f());
    } catch (err) {
      setError(err);
    }
  };
  return (
    <Section title="Webhook signing secret">
      <div class="row">
        <button type="button" onClick={() => void run(() => session.client.workspace.signingSecret())}>Reveal</button>
        <ConfirmButton label="Rotate" question="Rotate the signing secret? The old one keeps signing for 24 h." onConfirm={() => run(() => session.client.workspace.rotateSigningSecret())} />
        {secret ? <button type="button" onClick={() => setSecret(null)}>Hide</button> : null}
      </div>
      {secret ? (
        <dl>
          <dt>Current</dt><dd><code id="signing-secret">{secret.signingSecret}</code></dd>
          {secret.previousSigningSecret ? <><dt>Previous (valid until {fmtDate(secret.previousExpiresAt)})</dt><dd><code>{secret.previousSigningSecret}</code></dd></> : null}
        </dl>
      ) : null}
      <ErrorNote error={error} />
    </Section>
  );
}

function Delivery({ session, d, onChange }: { session: Session; d: WebhookDelivery; onChange: () => void }): JSX.Element {
  const [full, setFull] = useState<WebhookDelivery | null>(null);
  const [error, setError] = useState<unknown>(null);
  return (
    <li class="delivery" data-delivery={d.id}>
      <div class="row">
        <span><strong>{d.eventType}</strong> for {d.jobId} → {d.url}</span>
        <span>{d.status}, {d.attemptCount} attempt{d.attemptCount === 1 ? '' : 's'}{d.lastStatusCode ? `, last ${d.lastStatusCode}` : ''}</span>
        <button type="button" aria-expanded={!!full} onClick={async () => {
          if (full) return setFull(null);
          try {
            setFull(await session.client.webhooks.deliveries.retrieve(d.id));
          } catch (err) {
            setError(err);
          }
        }}>{full ? 'Hide attempts' : 'Attempts'}</button>
        <button type="button" onClick={async () => {
          setError(null);
          try {
            await session.client.webhooks.deliveries.redeliver(d.id);
            setFull(null);
            onChange();
          } catch (err) {
            setError(err);
          }
        }}>Redeliver</button>
      </div>
      {full?.attempts ? (
        <ScrollRegion label={`Attempts of ${d.id}`}>
          <table>
            <caption class="visually-hidden">Attempts of {d.id}</caption>
            <thead><tr><th scope="col">#</th><th scope="col">At</th><th scope="col">Outcome</th><th scope="col">Status</th><th scope="col">Duration</th><th scope="col">Error</th></tr></thead>
            <tbody>{full.attempts.map((a) => <tr key={a.attempt}><td>{a.attempt}</td><td>{fmtDate(a.at)}</td><td>{a.outcome}</td><td>{a.statusCode ?? '–'}</td><td>{a.durationMs === null ? '–' : `${a.durationMs} ms`}</td><td>{a.error ?? ''}</td></tr>)}</tbody>
          </table>
        </ScrollRegion>
      ) : null}
      <ErrorNote error={error} />
    </li>
  );
}

function Deliveries({ session }: { session: Session }): JSX.Element {
  const pages = useCursorPages();
  const [status, setStatus] = useState<'' | 'pending' | 'succeeded' | 'failed'>('');
  const list = useAsync((signal) => session.client.webhooks.deliveries.list({ limit: 20, ...(status ? { status } : {}), ...(pages.cursor ? { cursor: pages.cursor } : {}) }, { signal }), [pages.cursor, status]);
  return (
    <Section title="Webhook deliveries">
      <div class="row">
        <label for="dlv-status">Status</label>
        <select id="dlv-status" value={status} onChange={(e) => { setStatus(e.currentTarget.value as typeof status); pages.reset(); }}>
          <option value="">Any</option><option value="pending">Pending</option><option value="succeeded">Succeeded</option><option value="failed">Failed</option>
        </select>
        <button type="button" onClick={list.reload}>Refresh</button>
      </div>
      <ErrorNote error={list.error} />
      <ul class="deliveries">{(list.data?.data ?? []).map((d) => <Delivery key={`${d.id}-${d.attemptCount}-${d.status}`} session={session} d={d} onChange={list.reload} />)}</ul>
      {list.data && list.data.data.length === 0 ? <p>No deliveries: jobs created with a webhook URL show theirs here.</p> : null}
      {list.data ? <Pager label="Deliveries" page={pages.page} hasNext={!!list.data.nextCursor} onNext={() => list.data?.nextCursor && pages.next(list.data.nextCursor)} onPrev={pages.prev} /> : null}
    </Section>
  );
}

export function WorkspacePage({ session }: { session: Session }): JSX.Element {
  return (
    <>
      <h1>Workspace{session.workspaceName ? `: ${session.workspaceName}` : ''}</h1>
      <Credits session={session} />
      <Keys session={session} />
      <Secret session={session} />
      <Deliveries session={session} />
    </>
  );
}
