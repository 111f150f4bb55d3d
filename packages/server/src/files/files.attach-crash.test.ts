// Audio attached to a transcript on its own (decisions §19) by a process that crashes at any step:
// the media's row always names a file that is there with the bytes the row describes, so what a
// restart does (its start-up sweep, serve.ts) and the orphan sweep leave the media served. Before,
// the transcript's file was moved into `tmp/` (named after the upload, so with this process's pid)
// before the row named the audio, and the audio committed under the transcript's name: a crash
// before the row's update left the row naming a file that was gone (the start-up sweep removed the
// moved transcript as a crashed upload's file: 404 "no longer stored") or that held the audio under
// the transcript's name and ETag. A crash is a step that never returns: the test holds it there,
// runs the sweeps a restart runs (this process's pid counts as a dead one's at start), and reads
// the media. Two attachments at once share no file either: the one whose row is written is served,
// and the other is answered what it would have been sent a moment later (the media is audio now:
// 400 VALIDATION_FAILED), as is one whose transcript was deleted meanwhile (400 REFERENCE_NOT_FOUND).
// At rest the audio has the media's plain name, `media/<id>`, the only one a version before names
// beside takes for a row's file: after 9874b0c it stayed `media/<id>.<token>`, which such a
// version's orphan sweep removes once an hour old (a rolling upgrade, a rollback). So the audio
// takes the plain name once its row names it (plain-names.ts), and a crash at each of those steps
// is held here too; after each test, that older sweep rule is run on what is left.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { buildTestApp, call, json, type ErrorJson, type TestApp } from '../../test/helpers.ts';
import { sweepAtStart } from '../store/orphan-sweeper.ts';
import { fileUpload, TWO_NAMES_VTT as VTT, wavFile } from './files.fixtures.testkit.ts';
import type { Media } from './files.schemas.ts';

/** A promise and its settling functions, to hold a step where the process "crashed". */
function held<T = void>(): { promise: Promise<T>; resolve: (v: T) => void; reject: (err: Error) => void } {
  let resolve!: (v: T) => void;
  let reject!: (err: Error) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

describe('audio attached to a transcript on its own, the process crashing at each step', { timeout: 20_000 }, () => {
  let t: TestApp;
  before(async () => {
    t = await buildTestApp({ RATE_LIMIT_UPLOAD: '1000', RATE_LIMIT_FILES: '100000', RATE_LIMIT_DEFAULT: '100000', ROLE: 'api' });
  });
  after(async () => t.close());

  const upload = (data: Buffer | string, filename: string, fields: Record<string, string> = {}) => call(t, t.main, { method: 'POST', url: '/v1/files', ...fileUpload(data, filename, fields) });
  const files = (ids: readonly string[]) => t.services.stores.media.filesWithRows(ids);
  /** The files of this media in the media folder. */
  const storedOf = (mediaId: string) => readdirSync(path.join(t.dataDir, 'media')).filter((name) => name.startsWith(mediaId));

  let made = 0;
  /** A new transcript on its own (its own bytes: the same ones again would be a duplicate), and its text. */
  async function transcript(): Promise<{ mediaId: string; text: string }> {
    const text = VTT.replace('tonight', `tonight, ${++made}`);
    const res = await upload(text, 'talk.vtt');
    assert.equal(res.statusCode, 201, res.body);
    return { mediaId: json<Media>(res).id, text };
  }

  /** The media's kind and the bytes its content route serves. */
  async function served(mediaId: string, kind: Media['kind'], bytes: Buffer | string): Promise<void> {
    assert.equal(json<Media>(await call(t, t.main, { method: 'GET', url: `/v1/files/${mediaId}` })).kind, kind);
    const content = await call(t, t.main, { method: 'GET', url: `/v1/files/${mediaId}/content` });
    assert.equal(content.statusCode, 200, content.body);
    // Compared as bytes: assert's diff of two large buffers takes minutes.
    assert.ok(content.rawPayload.equals(Buffer.from(bytes)), `served ${content.rawPayload.length} bytes, not the ${Buffer.byteLength(bytes)} expected`);
  }

  /** The name of the file that the media's row names. */
  const rowFile = async (mediaId: string) => path.basename((await t.sql.get<{ storage_path: string }>('SELECT storage_path FROM media WHERE id = ?', mediaId))?.storage_path ?? '');

  /**
   * The orphan sweep of a version before names beside (9874b0c^, IdsWithRows): a file is a row's
   * only when its name is the id of a media with a row, whatever the row names. Without its age
   * bound (an hour), as it sweeps an hour later: what it removes, and the media's content after.
   */
  async function olderVersionSweeps(mediaId: string, kind: Media['kind'], bytes: Buffer | string): Promise<void> {
    const withRows = async (names: readonly string[]) => {
      const ids = new Set((await t.sql.all<{ id: string }>('SELECT id FROM media')).map((r) => r.id));
      return new Set(names.filter((name) => ids.has(name)));
    };
    await t.services.stores.blobs.sweepOrphans(withRows, -1);
    await served(mediaId, kind, bytes);
  }

  /** What a restart on the same MEDIA_DIR does before it listens (serve.ts), then an orphan sweep with no age bound. */
  async function restartSweeps(): Promise<void> {
    const { blobs } = t.services.stores;
    await sweepAtStart(blobs, files, t.composed.startSweeps);
    // An orphan's age bound (an hour) only waits for rows still being written: none is, once crashed.
    await blobs.sweepOrphans(files, -1);
  }

  for (const step of ['commit', 'attachAudio'] as const) {
    it(`a crash ${step === 'commit' ? 'as the audio is moved into place' : 'before the row names the audio'} leaves the transcript served after a restart, and no file of the audio`, async () => {
      const { mediaId, text } = await transcript();
      const { media, blobs } = t.services.stores;
      const [commit, attach] = [blobs.commit.bind(blobs), media.attachAudio.bind(media)];
      const reached = held();
      const crash = held<never>();
      const crashed = () => {
        reached.resolve();
        return crash.promise;
      };
      if (step === 'commit') blobs.commit = crashed;
      else media.attachAudio = crashed;
      const answer = upload(wavFile(2), 'talk.wav', { mediaId });
      try {
        await reached.promise;
        await restartSweeps();
        await served(mediaId, 'transcript', text);
        assert.deepEqual(storedOf(mediaId), [mediaId]);
        await olderVersionSweeps(mediaId, 'transcript', text);
      } finally {
        crash.reject(new Error('crashed'));
        [blobs.commit, media.attachAudio] = [commit, attach];
        await answer;
      }
      // The media takes audio as before.
      const audio = wavFile(2.5);
      const res = await upload(audio, 'talk.wav', { mediaId });
      assert.equal(res.statusCode, 201, res.body);
      await served(mediaId, 'audio', audio);
      assert.deepEqual(storedOf(mediaId), [mediaId], 'only the audio is stored, under the plain name');
      await olderVersionSweeps(mediaId, 'audio', audio);
    });
  }

  /** A transcript on its own with 2 s of audio attached to it. */
  async function attached(): Promise<{ mediaId: string; audio: Buffer }> {
    const { mediaId } = await transcript();
    const audio = wavFile(2);
    const res = await upload(audio, 'talk.wav', { mediaId });
    assert.equal(res.statusCode, 201, res.body);
    return { mediaId, audio };
  }

  it("a completed attach leaves the audio under the media's plain name alone, the one its row names", async () => {
    const { mediaId, audio } = await attached();
    assert.deepEqual(storedOf(mediaId), [mediaId]);
    assert.equal(await rowFile(mediaId), mediaId);
    await served(mediaId, 'audio', audio);
  });

  it("an older version's orphan sweep, an hour after a completed attach, removes no file of a row (before: the audio, 404)", async () => {
    const { mediaId, audio } = await attached();
    await olderVersionSweeps(mediaId, 'audio', audio);
    assert.deepEqual(storedOf(mediaId), [mediaId]);
  });

  // The steps after the row names the audio beside the transcript's file (plain-names.ts).
  const afterRow = {
    placePlain: 'once the row names the audio, before it takes the plain name over the transcript\'s file',
    renameFile: 'once the audio has the plain name too, before the row names that',
    remove: 'once the row names the plain name, before the name beside is removed',
  } as const;
  for (const [step, when] of Object.entries(afterRow) as [keyof typeof afterRow, string][]) {
    it(`a crash ${when} leaves the audio served, and after a restart only under the plain name, which an older version's sweep keeps`, async () => {
      const { mediaId } = await transcript();
      const { media, blobs } = t.services.stores;
      const saved = { placePlain: blobs.placePlain.bind(blobs), renameFile: media.renameFile.bind(media), remove: blobs.remove.bind(blobs) };
      const reached = held();
      const crash = held<never>();
      let crashed = false;
      /** The attach's call of the step (the first that `mine` takes) never returns; the restart's run. */
      const crashing = <A extends unknown[], R>(real: (...args: A) => Promise<R>, mine: (...args: A) => boolean = () => true) => (...args: A): Promise<R> => {
        if (crashed || !mine(...args)) return real(...args);
        crashed = true;
        reached.resolve();
        return crash.promise;
      };
      if (step === 'placePlain') blobs.placePlain = crashing(saved.placePlain);
      else if (step === 'renameFile') media.renameFile = crashing(saved.renameFile);
      else blobs.remove = crashing(saved.remove, (file) => path.basename(file).startsWith(`${mediaId}.`));
      const audio = wavFile(2);
      const answer = upload(audio, 'talk.wav', { mediaId });
      try {
        await reached.promise;
        await served(mediaId, 'audio', audio);
        await restartSweeps();
        await served(mediaId, 'audio', audio);
        assert.deepEqual(storedOf(mediaId), [mediaId], 'the plain name alone is left');
        assert.equal(await rowFile(mediaId), mediaId);
        await olderVersionSweeps(mediaId, 'audio', audio);
      } finally {
        crash.reject(new Error('crashed'));
        Object.assign(blobs, { placePlain: saved.placePlain, remove: saved.remove });
        media.renameFile = saved.renameFile;
      }
      // Had the process gone on, the upload was attached: the row names the audio.
      const res = await answer;
      assert.equal(res.statusCode, 201, res.body);
      assert.deepEqual(storedOf(mediaId), [mediaId]);
    });
  }

  /** An error answer without its request id: what two requests answered alike have in common. */
  const answerOf = (res: Awaited<ReturnType<typeof upload>>) => {
    const { requestId: _requestId, ...error } = json<ErrorJson>(res).error;
    return { status: res.statusCode, ...error };
  };

  it('two audio files attached at once: the one whose row is written is served, the other stored nowhere, its upload answered as if sent after', async () => {
    const { mediaId } = await transcript();
    const { media } = t.services.stores;
    const attach = media.attachAudio.bind(media);
    // The first to reach the row waits until the second has written it (or failed to).
    const second = held();
    let calls = 0;
    media.attachAudio = async (...args) => {
      if (++calls === 1) {
        await second.promise;
        return attach(...args);
      }
      try {
        return await attach(...args);
      } finally {
        second.resolve();
      }
    };
    const [a, b] = [wavFile(2), wavFile(3)];
    let answers;
    try {
      answers = await Promise.all([upload(a, 'a.wav', { mediaId }), upload(b, 'b.wav', { mediaId })]);
    } finally {
      media.attachAudio = attach;
      second.resolve();
    }
    const won = answers.findIndex((r) => r.statusCode === 201);
    assert.notEqual(won, -1, answers.map((r) => r.body).join('\n'));
    const lost = answers[1 - won] as NonNullable<(typeof answers)[number]>;
    const m = json<Media>(answers[won] as NonNullable<typeof lost>);
    const audio = m.sizeBytes === a.length ? a : b;
    await served(mediaId, 'audio', audio);
    assert.deepEqual(storedOf(mediaId), [mediaId], 'only the audio of the row is stored, under the plain name');
    assert.equal(await rowFile(mediaId), mediaId);
    await olderVersionSweeps(mediaId, 'audio', audio);
    // The media exists, no longer a transcript on its own: the loser hears what its upload
    // would have heard a moment later (400 VALIDATION_FAILED at /mediaId), not that the media is missing.
    const later = await upload(won === 0 ? b : a, won === 0 ? 'b.wav' : 'a.wav', { mediaId });
    assert.equal(later.statusCode, 400, later.body);
    assert.equal(json<ErrorJson>(later).error.code, 'VALIDATION_FAILED');
    assert.deepEqual(answerOf(lost), answerOf(later));
    assert.deepEqual(storedOf(mediaId), [mediaId], 'the refused audio is stored nowhere');
  });

  it('audio attached as its transcript is deleted: the upload is answered as if sent after the deletion, and stores nothing', async () => {
    const { mediaId } = await transcript();
    const { media } = t.services.stores;
    const attach = media.attachAudio.bind(media);
    // The media is deleted once the attachment has checked its target, before it writes the row.
    media.attachAudio = async (...args) => {
      const res = await call(t, t.main, { method: 'DELETE', url: `/v1/files/${mediaId}` });
      assert.equal(res.statusCode, 204, res.body);
      return attach(...args);
    };
    const audio = wavFile(2);
    let raced;
    try {
      raced = await upload(audio, 'talk.wav', { mediaId });
    } finally {
      media.attachAudio = attach;
    }
    const later = await upload(audio, 'talk.wav', { mediaId });
    assert.equal(later.statusCode, 400, later.body);
    assert.equal(json<ErrorJson>(later).error.code, 'REFERENCE_NOT_FOUND');
    assert.deepEqual(answerOf(raced), answerOf(later));
    assert.deepEqual(storedOf(mediaId), [], 'no file of the media or its audio is left');
  });
});
