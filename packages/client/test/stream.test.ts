import assert from 'node:assert/strict';
import { test } from 'node:test';
import { AbortError, JobFailedError, NotFoundError, Rapport, TimeoutError, UnexpectedResponseError } from '../src/index.ts';
import { apiError, fakeServer, job, json } from './fake-server.ts';
import type { Recorded } from './fake-server.ts';
import type { ServerResponse } from 'node:http';

function frame(id: number, event: string, body: Record<string, unknown>): string {
  return `id: ${id}\nevent: ${event}\ndata: ${JSON.stringify(job(body))}\n\n`;
}

const script = [
  frame(1, 'job.updated', { stage: 'queued', status: 'queued', progress: 0 }),
  frame(2, 'job.updated', { stage: 'detecting_speech', progress: 0.3 }),
  frame(3, 'job.updated', { stage: 'scoring', progress: 0.8 }),
  frame(4, 'job.succeeded', { status: 'succeeded', stage: 'done', progress: 1, resultId: 'mat_1' }),
];

/** Serves the events after Last-Event-ID, cutting the first connection after two events. */
function eventsHandler(req: Recorded, res: ServerResponse, connection: number): void {
  res.writeHead(200, { 'content-type': 'text/event-stream' });
  res.write('retry: 20\n\n: ping\n\n');
  const from = Number(req.headers['last-event-id'] ?? 0);
  const frames = script.slice(from);
  if (connection === 1) {
    res.write(frames.slice(0, 2).join(''));
    // Half a frame, then the connection drops: the SDK must not yield it.
    res.write('id: 3\nevent: job.upd');
    setTimeout(() => res.socket?.destroy(), 20);
    return;
  }
  res.end(frames.join(''));
}

test('stream(jobId) reconnects with Last-Event-ID after a cut and yields each event once', async () => {
  let connections = 0;
  const s = await fakeServer((req, res) => eventsHandler(req, res, ++connections));
  try {
    const client = new Rapport({ apiKey: 'k', baseUrl: s.url });
    const events = [];
    for await (const ev of client.jobs.stream('job_1')) events.push(ev);
    assert.deepEqual(events.map((e) => [e.id, e.event, e.job.progress]), [
      ['1', 'job.updated', 0], ['2', 'job.updated', 0.3], ['3', 'job.updated', 0.8], ['4', 'job.succeeded', 1],
    ]);
    assert.equal(s.requests.length, 2);
    assert.equal(s.requests[0]?.headers['last-event-id'], undefined);
    assert.equal(s.requests[1]?.headers['last-event-id'], '2');
    assert.equal(s.requests[1]?.headers.accept, 'text/event-stream');
  } finally {
    await s.close();
  }
});

test('a silent stream is treated as cut and resumed', async () => {
  let connections = 0;
  const s = await fakeServer((req, res) => {
    connections++;
    res.writeHead(200, { 'content-type': 'text/event-stream' });
    if (connections === 1) return void res.write(script[0]); // then silence
    res.end(script.slice(Number(req.headers['last-event-id'] ?? 0)).join(''));
  });
  try {
    const client = new Rapport({ apiKey: 'k', baseUrl: s.url });
    const ids = [];
    for await (const ev of client.jobs.stream('job_1', { idleTimeoutMs: 100 })) ids.push(ev.id);
    assert.deepEqual(ids, ['1', '2', '3', '4']);
    assert.equal(s.requests[1]?.headers['last-event-id'], '1');
  } finally {
    await s.close();
  }
});

test('stream of an unknown job throws NotFoundError rather than reconnecting', async () => {
  const s = await fakeServer((_req, res) => apiError(res, 404, 'NOT_FOUND'));
  try {
    const client = new Rapport({ apiKey: 'k', baseUrl: s.url });
    await assert.rejects(async () => {
      for await (const _ of client.jobs.stream('job_x')) assert.fail('no event expected');
    }, NotFoundError);
    assert.equal(s.requests.length, 1);
  } finally {
    await s.close();
  }
});

test('createAndWait follows the stream and reads the result', async () => {
  let connections = 0;
  const s = await fakeServer((req, res) => {
    if (req.method === 'POST') return json(res, 202, { jobId: 'job_1', status: 'queued' });
    if (req.url.endsWith('/events')) return eventsHandler(req, res, ++connections);
    if (req.url === '/v1/matching/mat_1') return json(res, 200, { id: 'mat_1', markdown: '# Hi' });
    json(res, 404, { error: { code: 'NOT_FOUND', message: req.url } });
  });
  try {
    const client = new Rapport({ apiKey: 'k', baseUrl: s.url });
    const stages: string[] = [];
    const result = await client.matching.createAndWait(
      { target: { type: 'entity_id', entityId: 'e1' }, group: [{ type: 'entity_id', entityId: 'e2' }] },
      { onUpdate: (j) => stages.push(j.stage) },
    );
    assert.equal(result.markdown, '# Hi');
    assert.deepEqual(stages, ['queued', 'detecting_speech', 'scoring', 'done']);
  } finally {
    await s.close();
  }
});

test('wait falls back to polling when the stream cannot be opened, and a failed job throws JobFailedError', async () => {
  let polls = 0;
  const s = await fakeServer((req, res) => {
    if (req.url.endsWith('/events')) return void res.socket?.destroy();
    polls++;
    json(res, 200, polls < 3 ? job({ progress: polls / 3 }) : job({ status: 'failed', stage: 'scoring', error: { code: 'target_not_found', message: 'target missed' } }));
  });
  try {
    const client = new Rapport({ apiKey: 'k', baseUrl: s.url, maxRetries: 0 });
    const err = await client.jobs.wait('job_1', { maxReconnects: 1, pollIntervalMs: 10 }).catch((e: unknown) => e);
    assert.ok(err instanceof JobFailedError, String(err));
    assert.equal(err.code, 'target_not_found');
    assert.equal(err.jobId, 'job_1');
    assert.equal(polls, 3);
  } finally {
    await s.close();
  }
});

test('wait gives up after its timeoutMs with a TimeoutError; an abort signal stops a stream', async () => {
  const s = await fakeServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'text/event-stream' });
    res.write(script[1]); // running, and never finishing
  });
  try {
    const client = new Rapport({ apiKey: 'k', baseUrl: s.url });
    const started = Date.now();
    await assert.rejects(client.jobs.wait('job_1', { timeoutMs: 150 }), TimeoutError);
    assert.ok(Date.now() - started < 2000);
    const ac = new AbortController();
    const seen: string[] = [];
    await assert.rejects(async () => {
      for await (const ev of client.jobs.stream('job_1', { signal: ac.signal })) {
        seen.push(ev.event);
        ac.abort();
      }
    }, AbortError);
    assert.deepEqual(seen, ['job.updated']);
  } finally {
    await s.close();
  }
});

test('events.stream follows every job of the workspace, resuming across cuts, until the caller stops', async () => {
  let connections = 0;
  const s = await fakeServer((req, res) => {
    assert.equal(req.url, '/v1/events');
    connections++;
    res.writeHead(200, { 'content-type': 'text/event-stream' });
    const from = Number(req.headers['last-event-id'] ?? 0);
    res.write(`id: ${from + 1}\nevent: job.updated\ndata: ${JSON.stringify(job({ id: `job_${from + 1}` }))}\n\n`);
    setTimeout(() => res.socket?.destroy(), 10);
  });
  try {
    const client = new Rapport({ apiKey: 'k', baseUrl: s.url });
    const ids: string[] = [];
    for await (const ev of client.events.stream({ lastEventId: '10' })) {
      ids.push(ev.job.id);
      if (ids.length === 3) break;
    }
    assert.deepEqual(ids, ['job_11', 'job_12', 'job_13']);
    assert.equal(connections, 3);
    assert.equal(s.requests[2]?.headers['last-event-id'], '12');
  } finally {
    await s.close();
  }
});

// A proxy's login page, or a base URL that points at another service, answers 200 with its own
// media type: the SDK must say so at once, instead of reading it as a stream that has no events
// yet (reconnecting until it gives up, or, when the page happens to hold a `data:` line, reading
// it as an event and reconnecting forever). The time limits make a hang a failure.
test('a stream answered 200 with another media type throws UnexpectedResponseError at once, without reconnecting', { timeout: 10_000 }, async () => {
  const s = await fakeServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'x-request-id': 'req_proxy' });
    res.write('<!doctype html><title>Sign in</title>\ndata: not an event\n\n'); // and held open
  });
  try {
    const client = new Rapport({ apiKey: 'k', baseUrl: s.url });
    const err = await (async () => {
      for await (const _ of client.jobs.stream('job_1', { idleTimeoutMs: 200, maxReconnects: 1 })) assert.fail('no event expected');
    })().catch((e: unknown) => e);
    assert.ok(err instanceof UnexpectedResponseError, String(err));
    assert.equal(err.status, 200);
    assert.equal(err.contentType, 'text/html; charset=utf-8');
    assert.equal(err.requestId, 'req_proxy');
    assert.match(err.message, /GET \/v1\/jobs\/job_1\/events answered 200 with text\/html, not text\/event-stream/);
    assert.ok(err.message.includes(s.url), 'names the base URL to check');
    assert.equal(s.requests.length, 1);
  } finally {
    await s.close();
  }
});

test('every event stream checks the media type, and wait does not fall back to polling the same wrong place', { timeout: 10_000 }, async () => {
  const s = await fakeServer((_req, res) => json(res, 200, { ok: true })); // answers JSON to everything
  try {
    const client = new Rapport({ apiKey: 'k', baseUrl: s.url });
    const streams: [string, () => AsyncGenerator<unknown>][] = [
      ['/v1/events', () => client.events.stream({ maxReconnects: 0 })],
      ['/v1/files/med_1/events', () => client.files.events('med_1', { maxReconnects: 0 })],
      ['/v1/files/events', () => client.files.stream({ maxReconnects: 0 })],
    ];
    for (const [path, open] of streams) {
      await assert.rejects(async () => {
        for await (const _ of open()) assert.fail('no event expected');
      }, (e: unknown) => e instanceof UnexpectedResponseError && e.contentType === 'application/json; charset=utf-8', path);
      assert.equal(s.requests.at(-1)?.url, path);
    }
    const before = s.requests.length;
    // Polling would read `{ ok: true }` as a job that never ends: the wait's limit only bounds this test.
    await assert.rejects(client.jobs.wait('job_1', { maxReconnects: 0, pollIntervalMs: 10, timeoutMs: 3000 }), UnexpectedResponseError);
    assert.deepEqual(s.requests.slice(before).map((r) => r.url), ['/v1/jobs/job_1/events']);
  } finally {
    await s.close();
  }
});

test('a stream without a Content-Type is refused too; parameters and case of the media type do not matter', { timeout: 10_000 }, async () => {
  let n = 0;
  const s = await fakeServer((_req, res) => {
    n++;
    if (n === 1) {
      res.removeHeader('content-type');
      res.writeHead(200);
      return void res.end(script[3]);
    }
    res.writeHead(200, { 'content-type': 'Text/Event-Stream;charset=UTF-8' });
    res.end(script[3]);
  });
  try {
    const client = new Rapport({ apiKey: 'k', baseUrl: s.url });
    const err = await client.jobs.wait('job_1').catch((e: unknown) => e);
    assert.ok(err instanceof UnexpectedResponseError && err.contentType === null, String(err));
    assert.match(err.message, /with no Content-Type/);
    const done = await client.jobs.wait('job_1');
    assert.equal(done.status, 'succeeded');
  } finally {
    await s.close();
  }
});
