// The SDK against a real service: upload, match and wait, read the result, one error of each
// class the API can produce on demand, pagination over several pages, a cut event stream that
// resumes with Last-Event-ID. Each job is checked on its success path when it succeeds, and on
// its typed failure path (JobFailedError, by-job null) when the engine cannot produce a result.
import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import {
  APIConnectionError, AuthenticationError, ConflictError, InsufficientCreditsError, JobFailedError, MethodNotAllowedError,
  NotFoundError, PayloadTooLargeError, PermissionDeniedError, Rapport, TimeoutError, UnsupportedMediaTypeError, ValidationError,
} from '../src/index.ts';
import type { Job, Media, MatchingPayload, UploadProgress } from '../src/index.ts';
import { closedPort, cuttingFetch, start, twoVoiceVtt, twoVoiceWav } from './real-service.ts';
import type { Service } from './real-service.ts';

const JOB_ERROR_CODES = ['target_not_found', 'media_unreadable', 'no_speech_detected', 'target_in_group', 'not_enough_speech', 'insufficient_credits', 'canceled', 'timed_out', 'internal_error'];

let service: Service;
let client: Rapport;
let dir: string;
let media: Media;
let finishedJob: Job;

before(async () => {
  service = await start();
  client = new Rapport({ apiKey: service.apiKey, baseUrl: service.url });
  dir = await mkdtemp(join(tmpdir(), 'rapport-sdk-real-'));
});
after(async () => {
  await service.close();
  await rm(dir, { recursive: true, force: true });
});

async function analysed(id: string): Promise<Media> {
  for (let i = 0; i < 200; i++) {
    const m = await client.files.retrieve(id);
    if (m.analysis.status === 'ready' || m.analysis.status === 'failed') return m;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`analysis of ${id} did not finish`);
}

describe('against a real service', () => {
  test('upload from a path with progress, attach a transcript, read it back', async () => {
    const path = join(dir, 'conversation.wav');
    const wav = twoVoiceWav();
    await writeFile(path, wav);
    const progress: UploadProgress[] = [];
    media = await client.files.upload(path, { label: 'Weekly call', onProgress: (p) => progress.push(p) });
    assert.match(media.id, /^med_[A-Za-z0-9]{20,}$/);
    assert.equal(media.kind, 'audio');
    assert.equal(media.filename, 'conversation.wav');
    assert.equal(media.sizeBytes, wav.byteLength);
    assert.equal(media.label, 'Weekly call');
    assert.deepEqual(progress.at(-1), { loaded: wav.byteLength, total: wav.byteLength });

    // Analysis runs off the API's event loop and may be running now; a transcript attached to a
    // running analysis is a documented 409, so attach it once the first analysis has ended.
    await analysed(media.id);
    const withTranscript = await client.files.upload(new TextEncoder().encode(twoVoiceVtt()), { filename: 'conversation.vtt', mediaId: media.id });
    assert.equal(withTranscript.id, media.id, 'a transcript attaches to its media');
    assert.equal(withTranscript.hasTranscript, true);

    media = await analysed(media.id);
    assert.deepEqual((await client.files.retrieve(media.id)).id, media.id);
    assert.equal(media.analysis.status, 'ready', `analysis ${JSON.stringify(media.analysis)}`);
    const d = await client.files.diarization(media.id);
    assert.equal(d.mediaId, media.id);
    assert.ok(d.segments.length > 0);
    // The same segments as files: one RTTM line per segment, WebVTT and SRT with the transcript's words.
    const rttm = await client.files.diarizationFile(media.id, 'rttm');
    assert.equal(rttm.trimEnd().split('\n').length, d.segments.length);
    assert.match(rttm, new RegExp(`^SPEAKER ${media.id} 1 `));
    const vtt = await client.files.diarizationFile(media.id, 'vtt');
    assert.match(vtt, /^WEBVTT\n/);
    // Voices carry each speaker's display name (decisions §17): the transcript's names here.
    assert.match(vtt, /<v (Ann|Bob|Speaker \d+)>/);
    assert.match(await client.files.diarizationFile(media.id, 'srt'), /^1\n\d\d:\d\d:\d\d,\d{3} --> /);
    assert.deepEqual(JSON.parse(await client.files.diarizationFile(media.id, 'json')), d);
    const bad = await client.files.diarizationFile(media.id, 'textgrid' as 'srt').catch((e: unknown) => e);
    assert.ok(bad instanceof ValidationError && bad.status === 400 && bad.code === 'VALIDATION_FAILED', String(bad));
    // Each speaker's measurements, and an entity's profile over its media.
    const measured = await client.files.metrics(media.id);
    assert.deepEqual(measured.speakers.map((s) => s.index), media.analysis.speakers.map((s) => s.index));
    assert.ok(measured.speakers.every((s) => s.metrics.speechSec > 0));
    const entityId = media.analysis.speakers[0]?.entityId;
    assert.ok(entityId);
    const profile = await client.entities.metrics(entityId);
    assert.equal(profile.entityId, entityId);
    assert.deepEqual(profile.appearances.map((a) => a.mediaId), [media.id]);
    assert.equal(profile.metrics?.speechSec, measured.speakers[0]?.metrics.speechSec);
    // The transcript names both voices, so both speakers carry its names.
    assert.deepEqual(media.analysis.speakers.map((s) => s.label).sort(), ['Ann', 'Bob']);
  });

  test('match and wait: the result on success, a typed JobFailedError otherwise', async () => {
    const updates: Job[] = [];
    const params = {
      target: { type: 'media_target', mediaId: media.id, selector: { strategy: 'speaker_index', speaker_index: 0, on_miss: 'fallback_dominant' } },
      group: [{ type: 'media_target', mediaId: media.id, selector: { strategy: 'speaker_index', speaker_index: 1, on_miss: 'fallback_dominant' } }],
      label: 'Ann and Bob',
    } as const;
    let result: MatchingPayload | undefined;
    let failure: JobFailedError | undefined;
    try {
      result = await client.matching.createAndWait(params, { onUpdate: (j) => updates.push(j), timeoutMs: 60_000 });
    } catch (err) {
      if (!(err instanceof JobFailedError)) throw err;
      failure = err;
    }
    assert.ok(updates.length >= 1, 'progress was reported');
    const last = updates.at(-1)!;
    finishedJob = last;
    if (process.env.RAPPORT_TEST_VERBOSE) console.log('matching job', last.status, last.error, media.analysis);
    if (result) {
      assert.equal(last.status, 'succeeded');
      assert.equal(result.context, 'behavioral_compatibility');
      assert.equal(result.output.template, 'matching');
      assert.equal(result.label, 'Ann and Bob');
      assert.deepEqual(result.target.source, params.target);
      assert.equal(result.group.length, 1);
      assert.ok(result.markdown && result.markdown.length > 0);
      assert.equal(result.json?.schemaVersion, 1);
      assert.deepEqual(await client.matching.byJob(last.id), result);
      assert.equal((await client.matching.retrieve(result.id)).id, result.id);
      // The evidence, read through its type: one pair, the target with the group's first member.
      const evidence = await client.matching.evidence(result.id);
      assert.deepEqual([evidence.kind, evidence.groupSize, evidence.pairs.map((p) => p.member), evidence.target.ref], ['matching', 1, ['group[0]'], 'target']);
      // The standalone HTML file: the document's title and its figures drawn as SVG.
      const html = await client.matching.html(result.id);
      assert.match(html, /^<!doctype html>/);
      assert.ok(html.includes(`<h1>${result.json?.title.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;')}</h1>`));
      // One SVG per illustration (the pair timeline under a shared conversation is not one).
      assert.equal(html.match(/<svg [^>]*class="figure /g)?.length, result.json?.sections.flatMap((x) => (Array.isArray(x.section_content) ? x.section_content : [])).filter((b) => b.type === 'illustration').length);
      assert.doesNotMatch(html, /<script/);
      const fb = await client.feedback.create({ resultId: result.id, rating: 4, comment: 'useful' });
      assert.equal(fb.rating, 4);
    } else {
      assert.ok(failure);
      assert.equal(last.status, 'failed');
      assert.equal(failure.jobId, last.id);
      assert.ok(JOB_ERROR_CODES.includes(failure.code), `documented job error code, got ${failure.code}`);
      assert.equal(failure.code, last.error?.code);
      assert.equal(await client.matching.byJob(last.id), null, 'a failed job has no result');
    }
    const job = await client.jobs.retrieve(last.id);
    assert.equal(job.status, last.status);
    assert.equal(job.type, 'matching');
  });

  test('a report job: createAndWait gives the profile, or JobFailedError', async () => {
    try {
      const report = await client.reports.createAndWait({ target: { type: 'media_target', mediaId: media.id, selector: { strategy: 'dominant' } }, label: 'profile' });
      assert.equal(report.context, 'behavioral_profile');
      assert.equal(report.output.template, 'report');
      assert.ok(report.markdown);
      assert.equal((await client.reports.retrieve(report.id)).id, report.id);
    } catch (err) {
      assert.ok(err instanceof JobFailedError, String(err));
      assert.ok(JOB_ERROR_CODES.includes(err.code));
      assert.equal(await client.reports.byJob(err.jobId), null);
    }
  });

  test('an event stream cut mid-way resumes with Last-Event-ID, without loss or repeats', async () => {
    const fetchCut = cuttingFetch(1);
    const cut = new Rapport({ apiKey: service.apiKey, baseUrl: service.url, fetch: fetchCut });
    const events = [];
    // From the start of the job's history: event 1 comes, the connection drops, the rest follows.
    for await (const ev of cut.jobs.stream(finishedJob.id, { lastEventId: '0' })) events.push(ev);
    assert.equal(fetchCut.streams.length, 2, 'one reconnection');
    assert.equal(fetchCut.streams[1]?.lastEventId, '1');
    const ids = events.map((e) => Number(e.id));
    assert.deepEqual(ids, ids.map((_, i) => i + 1), 'every event once, in order');
    assert.ok(ids.length >= 2);
    assert.equal(events.at(-1)?.job.status, finishedJob.status);
    assert.equal(events.at(-1)?.event, finishedJob.status === 'succeeded' ? 'job.succeeded' : 'job.failed');
  });

  test('the workspace event stream carries a new job to its end', async () => {
    const target = { type: 'media_target', mediaId: media.id, selector: { strategy: 'speaker_index', speaker_index: 0 } } as const;
    const member = { type: 'media_target', mediaId: media.id, selector: { strategy: 'speaker_index', speaker_index: 1 } } as const;
    // From the start of the workspace's history, so that no event of the new job can be missed.
    const events = client.events.stream({ lastEventId: '0' });
    const receipt = await client.matching.create({ target, group: [member], label: 'watched' });
    const seen: string[] = [];
    for await (const ev of events) {
      if (ev.job.id !== receipt.jobId) continue;
      seen.push(ev.event);
      if (ev.event !== 'job.updated') break;
    }
    assert.ok(seen.length >= 1);
    assert.match(seen.at(-1) ?? '', /^job\.(succeeded|failed)$/);
  });

  test('an upload whose answer is lost is retried with its Idempotency-Key: one media, not two', async () => {
    let lost = 0;
    // The server gets the upload and answers, but the answer never reaches the SDK.
    const losing = (async (input: RequestInfo | URL, init?: RequestInit) => {
      const res = await fetch(input, init);
      if (init?.method === 'POST' && lost++ === 0) {
        await res.arrayBuffer();
        throw new TypeError('fetch failed');
      }
      return res;
    }) as typeof fetch;
    const retrying = new Rapport({ apiKey: service.apiKey, baseUrl: service.url, fetch: losing });
    const uploaded = await retrying.files.upload(new TextEncoder().encode(twoVoiceVtt(8)), { filename: 'lost-answer.vtt' });
    assert.equal(lost, 2, 'sent twice');
    const named = [];
    for await (const m of client.files.list({ limit: 100 })) if (m.filename === 'lost-answer.vtt') named.push(m.id);
    assert.deepEqual(named, [uploaded.id]);
  });

  test('pagination walks more than one page', async () => {
    // Two transcripts of other lengths: the same bytes again would be one media (decisions §18).
    for (const [name, seconds] of [['a.vtt', 12], ['b.vtt', 16]] as const) await client.files.upload(new TextEncoder().encode(twoVoiceVtt(seconds)), { filename: name });
    const first = await client.files.list({ limit: 1 });
    assert.equal(first.data.length, 1);
    assert.equal(first.hasNextPage(), true);
    const ids: string[] = [];
    for await (const m of client.files.list({ limit: 1 })) ids.push(m.id);
    assert.ok(ids.length >= 3);
    assert.equal(new Set(ids).size, ids.length, 'no item twice');
    assert.equal(ids[0], first.data[0]?.id, 'newest first, same order as the first page');
    const txns = [];
    for await (const t of client.credits.transactions({ limit: 2 })) txns.push(t);
    assert.ok(txns.length >= 1);
  });

  test('each error class, from real answers', async () => {
    await assert.rejects(client.matching.create({ target: { type: 'entity_id', entityId: 'ent_x' }, group: [] }), (e: unknown) => {
      assert.ok(e instanceof ValidationError);
      assert.equal(e.status, 400);
      assert.equal(e.code, 'VALIDATION_FAILED');
      assert.ok(e.details.some((d) => d.path.startsWith('/group')), JSON.stringify(e.details));
      assert.ok(e.requestId);
      assert.ok(e.headers.get('x-ratelimit-limit'));
      return true;
    });
    await assert.rejects(
      client.matching.create({ target: { type: 'entity_id', entityId: 'ent_doesnotexist00000000' }, group: [{ type: 'media_target', mediaId: media.id, selector: { strategy: 'dominant' } }] }),
      (e: unknown) => e instanceof ValidationError && e.code === 'REFERENCE_NOT_FOUND' && e.details.some((d) => d.path === '/target/entityId'),
    );
    await assert.rejects(new Rapport({ apiKey: 'rk_wrong', baseUrl: service.url }).credits.balance(), (e: unknown) =>
      e instanceof AuthenticationError && e.status === 401 && e.code === 'UNAUTHENTICATED');
    await assert.rejects(client.files.retrieve('med_doesnotexist0000000000'), (e: unknown) => e instanceof NotFoundError && e.code === 'NOT_FOUND');

    const standard = await client.workspace.keys.create({ scope: 'standard', name: 'tests' });
    assert.match(standard.apiKey, /^rk_/);
    const limited = new Rapport({ apiKey: standard.apiKey, baseUrl: service.url });
    await assert.rejects(limited.workspace.retrieve(), (e: unknown) => e instanceof PermissionDeniedError && e.code === 'FORBIDDEN');

    await assert.rejects(client.jobs.cancel(finishedJob.id), (e: unknown) => e instanceof ConflictError && e.status === 409);
    const target = { type: 'media_target', mediaId: media.id, selector: { strategy: 'speaker_index', speaker_index: 0 } } as const;
    const member = { type: 'media_target', mediaId: media.id, selector: { strategy: 'speaker_index', speaker_index: 1 } } as const;
    const first = await client.matching.create({ target, group: [member], label: 'one' }, { idempotencyKey: 'same-key' });
    const replay = await client.matching.create({ target, group: [member], label: 'one' }, { idempotencyKey: 'same-key' });
    assert.equal(replay.jobId, first.jobId, 'the same key and body replay the first answer');
    await assert.rejects(client.matching.create({ target, group: [member], label: 'two' }, { idempotencyKey: 'same-key' }), (e: unknown) =>
      e instanceof ConflictError && e.status === 422 && e.code === 'IDEMPOTENCY_KEY_REUSED');
    const inBody = { target, group: [member], idempotencyKey: 'body-key' };
    assert.equal((await client.matching.create(inBody)).jobId, (await client.matching.create(inBody)).jobId, 'a body key replays too');

    await assert.rejects(client.files.upload(new Uint8Array(2048).fill(7), { filename: 'noise.bin' }), (e: unknown) =>
      e instanceof UnsupportedMediaTypeError && e.status === 415);
    await assert.rejects(new Rapport({ apiKey: 'k', baseUrl: `http://127.0.0.1:${await closedPort()}`, maxRetries: 0 }).credits.balance(),
      (e: unknown) => e instanceof APIConnectionError && /ECONNREFUSED/.test(e.message));
    // A body that stalls after its first bytes: the server waits for the rest, the SDK gives up.
    async function* stalling(): AsyncGenerator<Uint8Array> {
      yield twoVoiceWav(1).subarray(0, 4096);
      await new Promise((r) => setTimeout(r, 1000));
    }
    await assert.rejects(client.files.upload(stalling(), { filename: 'slow.wav' }, { timeoutMs: 200 }), TimeoutError);
  });

  test('402 when the workspace cannot pay, 413 over the upload limit, 405 on a wrong method', async () => {
    const poor = await start({ INITIAL_CREDITS: '0', MAX_UPLOAD_BYTES: '100000' });
    try {
      const c = new Rapport({ apiKey: poor.apiKey, baseUrl: poor.url });
      await assert.rejects(c.files.upload(twoVoiceWav(1), { filename: 'x.wav' }), (e: unknown) =>
        e instanceof InsufficientCreditsError && e.status === 402 && e.code === 'INSUFFICIENT_CREDITS');
      await assert.rejects(c.files.upload(twoVoiceWav(8), { filename: 'big.wav' }), (e: unknown) =>
        e instanceof PayloadTooLargeError && e.status === 413 && e.code === 'PAYLOAD_TOO_LARGE');
      // No SDK method sends a wrong method; the transport can.
      await assert.rejects(c.http.request({ method: 'DELETE', path: '/v1/credits' }), (e: unknown) =>
        e instanceof MethodNotAllowedError && e.status === 405);
    } finally {
      await poor.close();
    }
  });
});
