// POST /v1/files with bytes the workspace already has (decisions §18): 200 with the existing
// media and duplicate: true, nothing stored, analysed or charged, the label ignored; a first
// upload is 201 with duplicate: false. Idempotency keys replay their first answer, concurrent
// uploads of the same bytes make one media, a deleted media's bytes are new again, another
// workspace's media never counts, and a duplicate never counts against the storage quota nor
// against the free-space floor (MIN_FREE_DISK_BYTES): it takes no room on either.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { Readable } from 'node:stream';
import { buildTestApp, call, json, type ErrorJson, type TestApp, type Tenant } from '../../test/helpers.ts';
import { fileUpload, VTT, wavFile } from './files.fixtures.testkit.ts';
import type { UploadedMedia } from './files.schemas.ts';
import { MEDIA_WITH_BYTES_SQL } from './media-duplicates.ts';
import { DiskSpaceGuard } from './storage-space.ts';

interface Balance { balance: number; reserved: number; available: number }

describe('POST /v1/files with bytes the workspace already has (decisions §18)', () => {
  let t: TestApp;
  before(async () => {
    t = await buildTestApp({ RATE_LIMIT_UPLOAD: '1000' });
  });
  after(async () => t.close());

  const upload = (data: Buffer | string, filename: string, fields: Record<string, string> = {}, headers: Record<string, string> = {}, tenant: Tenant = t.main) => {
    const body = fileUpload(data, filename, fields);
    return call(t, tenant, { method: 'POST', url: '/v1/files', payload: body.payload, headers: { ...body.headers, ...headers } });
  };
  const balance = async (tenant: Tenant = t.main) => json<Balance>(await call(t, tenant, { method: 'GET', url: '/v1/credits' }));
  const rows = (sha256: string) => t.sql.count('SELECT COUNT(*) FROM media WHERE sha256 = ?', sha256);
  const ledger = (mediaId: string) => t.sql.count('SELECT COUNT(*) FROM credit_transactions WHERE media_id = ?', mediaId);
  const tasks = (mediaId: string) => t.sql.count("SELECT COUNT(*) FROM tasks WHERE kind = 'media.analyze' AND ref_id = ?", mediaId);
  const dirs = () => ({ tmp: readdirSync(path.join(t.dataDir, 'tmp')), media: readdirSync(path.join(t.dataDir, 'media')) });

  it('the same WAV again: 200, the same media, duplicate: true, label ignored, nothing stored or charged', async () => {
    const wav = wavFile(3.1);
    const first = await upload(wav, 'call.wav', { label: 'Monday call' });
    assert.equal(first.statusCode, 201, first.body);
    const m = json<UploadedMedia>(first);
    assert.equal(m.duplicate, false);
    const afterFirst = await balance();
    const stored = dirs();
    const transactions = await ledger(m.id);
    const queued = await tasks(m.id);

    const again = await upload(wav, 'call-copy.wav', { label: 'Another name' });
    assert.equal(again.statusCode, 200, again.body);
    const d = json<UploadedMedia>(again);
    assert.equal(d.duplicate, true);
    assert.equal(d.id, m.id);
    assert.equal(d.label, 'Monday call', 'the label sent with a duplicate is ignored');
    assert.equal(d.filename, 'call.wav', 'the media keeps its own name');
    assert.equal(d.sha256, m.sha256);

    assert.equal(await rows(m.sha256), 1, 'one media row');
    const list = json<{ data: { id: string; sha256: string }[] }>(await call(t, t.main, { method: 'GET', url: '/v1/files?limit=100' }));
    assert.deepEqual(list.data.filter((x) => x.sha256 === m.sha256).map((x) => x.id), [m.id], 'listed once');
    assert.deepEqual(await balance(), afterFirst, 'nothing reserved or charged for the duplicate');
    assert.equal(await ledger(m.id), transactions, 'no credit transaction for the duplicate');
    assert.deepEqual(dirs(), stored, 'no file kept: the temporary upload is removed, no second media file');
    assert.equal(await tasks(m.id), queued, 'no second analysis queued');
  });

  it('a transcript on its own uploaded twice is one media', async () => {
    const first = await upload(VTT, 'a.vtt');
    assert.equal(first.statusCode, 201, first.body);
    const again = await upload(VTT, 'b.vtt', { label: 'ignored' });
    assert.equal(again.statusCode, 200, again.body);
    assert.equal(json<UploadedMedia>(again).id, json<UploadedMedia>(first).id);
    assert.equal(json<UploadedMedia>(again).duplicate, true);
    assert.equal(json<UploadedMedia>(again).label, undefined);
  });

  it('other bytes are other media; another workspace with the same bytes gets its own', async () => {
    const bytes = wavFile(2.2);
    const a = await upload(bytes, 'a.wav');
    const b = await upload(wavFile(2.2), 'b.wav');
    assert.deepEqual([a.statusCode, b.statusCode], [201, 201]);
    assert.notEqual(json<UploadedMedia>(a).id, json<UploadedMedia>(b).id);
    const elsewhere = await upload(bytes, 'a.wav', {}, {}, t.other);
    assert.equal(elsewhere.statusCode, 201, elsewhere.body);
    assert.equal(json<UploadedMedia>(elsewhere).duplicate, false);
    assert.notEqual(json<UploadedMedia>(elsewhere).id, json<UploadedMedia>(a).id);
  });

  it('a deleted media is not a duplicate: its bytes are stored and analysed anew', async () => {
    const wav = wavFile(2.6);
    const first = json<UploadedMedia>(await upload(wav, 'gone.wav'));
    assert.equal((await call(t, t.main, { method: 'DELETE', url: `/v1/files/${first.id}` })).statusCode, 204);
    const again = await upload(wav, 'gone.wav');
    assert.equal(again.statusCode, 201, again.body);
    const m = json<UploadedMedia>(again);
    assert.equal(m.duplicate, false);
    assert.notEqual(m.id, first.id);
    assert.equal(m.analysis.status, 'pending');
  });

  it('an Idempotency-Key replays its first answer; a new key with the same bytes is the duplicate answer, replayed as such', async () => {
    const wav = wavFile(2.7);
    const first = await upload(wav, 'k.wav', {}, { 'idempotency-key': 'dup-k1' });
    assert.equal(first.statusCode, 201, first.body);
    const replay = await upload(wav, 'k.wav', {}, { 'idempotency-key': 'dup-k1' });
    assert.equal(replay.statusCode, 201, 'the same key answers as the first time, though the bytes now exist');
    assert.equal(replay.headers['idempotent-replayed'], 'true');
    assert.deepEqual(json<UploadedMedia>(replay), json<UploadedMedia>(first));

    const other = await upload(wav, 'k.wav', {}, { 'idempotency-key': 'dup-k2' });
    assert.equal(other.statusCode, 200, other.body);
    assert.equal(json<UploadedMedia>(other).duplicate, true);
    const otherReplay = await upload(wav, 'k.wav', {}, { 'idempotency-key': 'dup-k2' });
    assert.equal(otherReplay.statusCode, 200);
    assert.equal(otherReplay.headers['idempotent-replayed'], 'true');
    assert.equal(json<UploadedMedia>(otherReplay).id, json<UploadedMedia>(first).id);
    assert.equal(await rows(json<UploadedMedia>(first).sha256), 1);
  });

  it('the same bytes uploaded four times at once make one media, reserved once', async () => {
    const wav = wavFile(4.4);
    const before = await balance();
    const answers = await Promise.all([0, 1, 2, 3].map((i) => upload(wav, `race-${i}.wav`, { label: `race ${i}` })));
    assert.deepEqual(answers.map((a) => a.statusCode).sort(), [200, 200, 200, 201], answers.map((a) => a.body).join('\n'));
    const ids = new Set(answers.map((a) => json<UploadedMedia>(a).id));
    assert.equal(ids.size, 1);
    const [id] = [...ids];
    assert.equal(await rows(json<UploadedMedia>(answers[0]!).sha256), 1);
    assert.equal((await balance()).reserved - before.reserved, 1, 'one analysis reserved (1 credit per started minute)');
    assert.equal(await t.sql.count("SELECT COUNT(*) FROM credit_transactions WHERE media_id = ? AND kind = 'reserve'", id ?? ''), 1);
    assert.deepEqual(dirs().tmp, [], 'no temporary file left');
    const files = dirs().media.filter((f) => f.startsWith(id ?? '-'));
    assert.equal(files.length, 1, 'one stored file');
    // Every workspace's media share the directory: each file has its row, and no row two files.
    const everyMedia = (await t.sql.all<{ id: string }>('SELECT id FROM media')).map((r) => r.id).sort();
    assert.deepEqual(dirs().media.sort(), everyMedia, 'no file without its row');
  });

  it('finds the media with these bytes by the index media_content, not a scan of the workspace (both stores)', async () => {
    const q = MEDIA_WITH_BYTES_SQL;
    const plan = JSON.stringify(await t.sql.all(process.env.TEST_STORE === 'postgres' ? `EXPLAIN ${q}` : `EXPLAIN QUERY PLAN ${q}`, t.main.workspaceId, '0'.repeat(64)));
    assert.match(plan, /media_content/, plan);
    assert.doesNotMatch(plan, /Filter: \(sha256/, plan);
  });

  it('the OpenAPI document shows both answers with their duplicate field', async () => {
    const doc = json<{ paths: Record<string, { post?: { responses: Record<string, { content?: Record<string, { schema: { properties?: Record<string, unknown>; required?: string[] } }> }> } }> }>(
      await call(t, null, { method: 'GET', url: '/v1/openapi.json' }),
    );
    const responses = doc.paths['/v1/files']?.post?.responses ?? {};
    for (const status of ['200', '201']) {
      const schema = responses[status]?.content?.['application/json']?.schema;
      assert.ok(schema?.properties?.duplicate, `${status} has duplicate`);
      assert.ok(schema?.required?.includes('duplicate'), `${status} requires duplicate`);
    }
  });
});

describe('POST /v1/files of bytes the workspace already has, at its storage quota (decisions §18)', () => {
  const wav = wavFile(1.3);
  let t: TestApp;
  before(async () => {
    // The quota is the first file exactly: once it is stored, the workspace is full.
    t = await buildTestApp({ RATE_LIMIT_UPLOAD: '1000', MEDIA_QUOTA_BYTES: String(wav.length) });
  });
  after(async () => t.close());

  const upload = (data: Buffer | string, filename: string) => {
    const body = fileUpload(data, filename);
    return call(t, t.main, { method: 'POST', url: '/v1/files', payload: body.payload, headers: body.headers });
  };
  const dirs = () => ({ tmp: readdirSync(path.join(t.dataDir, 'tmp')), media: readdirSync(path.join(t.dataDir, 'media')).sort() });
  const used = async () => (await t.services.stores.workspaces.usage(t.main.workspaceId)).mediaBytes;

  it('the same bytes again are 200 duplicate, other bytes 409 QUOTA_EXCEEDED, and nothing is left on disk', async () => {
    const first = await upload(wav, 'full.wav');
    assert.equal(first.statusCode, 201, first.body);
    const m = json<UploadedMedia>(first);
    assert.equal(await used(), wav.length, 'the quota is filled');
    const stored = dirs();

    const again = await upload(wav, 'again.wav');
    assert.equal(again.statusCode, 200, again.body);
    assert.equal(json<UploadedMedia>(again).duplicate, true);
    assert.equal(json<UploadedMedia>(again).id, m.id);

    const other = await upload(wavFile(1.3), 'other.wav');
    assert.equal(other.statusCode, 409, other.body);
    assert.equal(json<ErrorJson>(other).error.code, 'QUOTA_EXCEEDED');
    assert.match(json<ErrorJson>(other).error.message, new RegExp(`stores ${wav.length} bytes of media of its ${wav.length}-byte quota`));
    const small = await upload(VTT, 'small.vtt');
    assert.equal(small.statusCode, 409, 'no room at all: a smaller file does not fit either');
    assert.equal(json<ErrorJson>(small).error.code, 'QUOTA_EXCEEDED');

    // Some room, less than the file: the duplicate still needs none, other bytes do not fit.
    await t.services.stores.workspaces.setQuotas(t.main.workspaceId, { mediaBytes: wav.length + 1000 });
    const roomy = await upload(wav, 'again.wav');
    assert.equal(roomy.statusCode, 200, roomy.body);
    assert.equal(json<UploadedMedia>(roomy).id, m.id);
    const tooBig = await upload(wavFile(1.3), 'other.wav');
    assert.equal(tooBig.statusCode, 409, tooBig.body);
    assert.equal(json<ErrorJson>(tooBig).error.code, 'QUOTA_EXCEEDED');

    assert.equal(await used(), wav.length, 'nothing counted for the duplicates or the refused uploads');
    assert.equal(await t.sql.count('SELECT COUNT(*) FROM media WHERE workspace_id = ?', t.main.workspaceId), 1);
    assert.deepEqual(dirs(), { ...stored, tmp: [] }, 'no temporary file and no other media file left');
  });
});

describe('POST /v1/files of bytes the workspace already has, on a nearly full disk (decisions §18)', () => {
  const FLOOR = 1024 * 1024;
  const wav = wavFile(1.7);
  let t: TestApp;
  /** The simulated disk's free bytes, and the length each upload announced to the guard. */
  let free = 100 * FLOOR;
  const announced: number[] = [];
  before(async () => {
    t = await buildTestApp({ RATE_LIMIT_UPLOAD: '1000', MIN_FREE_DISK_BYTES: String(FLOOR), ROLE: 'api' });
    const guard = new DiskSpaceGuard(t.services.config.mediaDir, FLOOR, async () => free);
    const counted = { admit: (n: number) => (announced.push(n), guard.admit(n)) };
    (t.services.files as unknown as { disk: Pick<DiskSpaceGuard, 'admit'> }).disk = counted;
  });
  after(async () => t.close());

  /** With its Content-Length (the guard reserves it before the body), or chunked (checked as it is written). */
  const upload = (data: Buffer, filename: string, chunked = false) => {
    const body = fileUpload(data, filename);
    const headers = { ...body.headers };
    return call(t, t.main, { method: 'POST', url: '/v1/files', headers, payload: chunked ? Readable.from([body.payload]) : body.payload });
  };
  const dirs = () => ({ tmp: readdirSync(path.join(t.dataDir, 'tmp')), media: readdirSync(path.join(t.dataDir, 'media')).sort() });

  it('the same bytes again are 200 duplicate, announced or chunked; other bytes 507, and nothing is left on disk', async () => {
    const first = await upload(wav, 'first.wav');
    assert.equal(first.statusCode, 201, first.body);
    const m = json<UploadedMedia>(first);
    const stored = dirs();

    // Less free than the file over the floor: new bytes do not fit, these need no room.
    free = FLOOR + 100;
    announced.length = 0;
    for (const chunked of [false, true]) {
      const again = await upload(wav, 'again.wav', chunked);
      assert.equal(again.statusCode, 200, again.body);
      assert.equal(json<UploadedMedia>(again).duplicate, true);
      assert.equal(json<UploadedMedia>(again).id, m.id);
      const other = await upload(wavFile(1.7), 'other.wav', chunked);
      assert.equal(other.statusCode, 507, other.body);
      assert.equal(json<ErrorJson>(other).error.code, 'INSUFFICIENT_STORAGE');
      assert.match(json<ErrorJson>(other).error.message, /MIN_FREE_DISK_BYTES/);
    }
    // Both ways were taken: refused at admission (the length announced) and at the first write.
    assert.deepEqual(announced.map((n) => n > wav.length), [true, true, false, false]);
    assert.equal(await t.sql.count('SELECT COUNT(*) FROM media WHERE workspace_id = ?', t.main.workspaceId), 1);
    assert.deepEqual(dirs(), { ...stored, tmp: [] }, 'no temporary file and no other media file left');
  });
});
