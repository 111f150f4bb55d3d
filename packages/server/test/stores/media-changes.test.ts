// The store suite, part 3 (one suite, two backends): the media change numbers behind the media
// event streams, and content links.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { BACKENDS, newWorkspace, postgresMissing, type OpenedTestStores } from '../store-backends.ts';
import { generateApiKey } from '../../src/workspace/workspace.store.ts';
import { newId } from '../../src/ids.ts';
import type { Stores } from '../../src/compose/stores.ts';

const pgSkip = await postgresMissing();

function media(ws: string) {
  const id = newId('med');
  return {
    id, workspaceId: ws, kind: 'audio' as const, filename: 'a.wav', contentType: 'audio/wav', sizeBytes: 10, sha256: '0'.repeat(64),
    durationSec: 30, label: null, storagePath: `/tmp/${id}`, transcript: null, analysisStatus: 'pending' as const,
  };
}

for (const backend of BACKENDS) {
  describe(`media changes and content links (${backend.name})`, { skip: backend.name === 'postgres' && pgSkip ? pgSkip : false }, () => {
    let t: OpenedTestStores;
    let s: Stores;
    before(async () => {
      t = await backend.open();
      s = t.stores;
    });
    after(() => t?.close());

    it('every visible write numbers the media anew, in order; a stream resumes from a number', async () => {
      const ws = await newWorkspace(s);
      const other = await newWorkspace(s);
      const start = await s.media.latestChange(ws);
      const a = await s.media.insert(media(ws));
      const b = await s.media.insert(media(ws));
      await s.media.insert(media(other));
      assert.ok(a.changedSeq > start && b.changedSeq > a.changedSeq, 'inserts are numbered in order');
      await s.media.markAnalysisRunning(a.id);
      const running = await s.media.get(ws, a.id);
      assert.ok((running?.changedSeq ?? 0) > b.changedSeq, 'a running analysis is a change');
      assert.deepEqual((await s.media.changesAfter(ws, start)).map((m) => m.id), [b.id, a.id], 'latest state, oldest change first, this workspace only');
      assert.deepEqual((await s.media.changesAfter(ws, running?.changedSeq ?? 0)).map((m) => m.id), []);
      await s.media.failAnalysis(a.id, { code: 'media_unreadable', message: 'x' });
      const failed = await s.media.get(ws, a.id);
      assert.equal(failed?.analysisStatus, 'failed');
      assert.equal(await s.media.latestChange(ws), failed?.changedSeq);
      await s.media.failAnalysis(a.id, { code: 'media_unreadable', message: 'x' });
      assert.equal((await s.media.get(ws, a.id))?.changedSeq, failed?.changedSeq, 'a write that changes nothing takes no number');
    });

    it("numbers changes per workspace: another workspace's activity does not move a workspace's ids (issue 20, finding 13)", async () => {
      const busy = await newWorkspace(s);
      const quiet = await newWorkspace(s);
      for (let i = 0; i < 5; i++) await s.media.insert(media(busy));
      assert.equal(await s.media.latestChange(quiet), 0);
      const m = await s.media.insert(media(quiet));
      assert.equal(m.changedSeq, 1);
      await s.media.markAnalysisRunning(m.id);
      assert.equal((await s.media.get(quiet, m.id))?.changedSeq, 2);
      assert.equal(await s.media.latestChange(busy), 5);
    });

    // Issue 32, finding 1: SQLite writes a whole row again for any UPDATE of it, transcript and
    // all (7 ms for 4 MiB on the event loop), and numbering an upload's change after its INSERT did
    // that. PostgreSQL keeps a large value apart (TOAST) and an UPDATE of another column leaves it.
    it('writes a new media row once, numbered as it is written', { skip: backend.name === 'postgres' ? 'an UPDATE on PostgreSQL does not write a TOASTed transcript again' : false }, async () => {
      const ws = await newWorkspace(s);
      await t.exec('CREATE TEMP TABLE media_updates (id TEXT)');
      await t.exec('CREATE TEMP TRIGGER count_media_updates AFTER UPDATE ON media BEGIN INSERT INTO media_updates (id) VALUES (NEW.id); END');
      try {
        const transcript = { format: 'webvtt' as const, cues: [{ start: 0, end: 1, speaker: 'Ann', text: 'hello' }] };
        const m = await s.media.insert({ ...media(ws), kind: 'transcript', transcript, analysisStatus: 'ready' });
        assert.equal(await t.count('SELECT COUNT(*) AS n FROM media_updates WHERE id = ?', m.id), 0, 'the row was written again after its INSERT');
        assert.equal(m.changedSeq, await s.media.latestChange(ws), 'numbered');
        assert.deepEqual((await s.media.changesAfter(ws, m.changedSeq - 1)).map((c) => c.id), [m.id]);
      } finally {
        await t.exec('DROP TRIGGER count_media_updates');
        await t.exec('DROP TABLE media_updates');
      }
    });

    it('content links: read one media while their key lives and they have not expired, and go with the media', async () => {
      const ws = await newWorkspace(s);
      const key = await s.workspaces.createKey(ws, { apiKey: generateApiKey(), scope: 'standard', name: 'player' });
      const m = await s.media.insert(media(ws));
      const now = Date.now();
      const token = await s.contentLinks.create({ workspaceId: ws, mediaId: m.id, keyId: key.id, expiresAt: now + 60_000 }, now);
      assert.deepEqual(await s.contentLinks.check(token, m.id, now), { ok: true, workspaceId: ws, keyId: key.id, scope: 'standard' });
      assert.deepEqual(await s.contentLinks.check(token, 'med_other', now), { ok: false, reason: 'other_media' });
      assert.deepEqual(await s.contentLinks.check(token, m.id, now + 60_000), { ok: false, reason: 'expired' });
      assert.deepEqual(await s.contentLinks.check('rl_unknown', m.id, now), { ok: false, reason: 'unknown' });
      assert.equal(await t.count('SELECT COUNT(*) AS n FROM content_links WHERE media_id = ?', m.id), 1);
      await s.media.delete(ws, m.id);
      assert.equal(await t.count('SELECT COUNT(*) AS n FROM content_links WHERE media_id = ?', m.id), 0);
      const m2 = await s.media.insert(media(ws));
      const token2 = await s.contentLinks.create({ workspaceId: ws, mediaId: m2.id, keyId: key.id, expiresAt: now + 60_000 }, now);
      await s.workspaces.revokeKey(ws, key.id);
      assert.deepEqual(await s.contentLinks.check(token2, m2.id, now), { ok: false, reason: 'unknown' }, 'dead with its key');
    });
  });
}
