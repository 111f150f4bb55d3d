// Audio attached to a transcript on its own takes the media's plain name the moment after its row
// names it under a name beside (plain-names.ts): the row then names `media/<id>`, and the name
// beside is removed. A reader that read the row just before and opens the file just after finds
// the name it read gone, though the file is there under the one the row gives now: the content
// route answered 404 "no longer stored", and the analysis, which its task may start at once (a
// worker in another process hears of the task at the row's commit), failed as media_unreadable
// for good. Both read the row again. Each test holds the attach where the reader read the row.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { access } from 'node:fs/promises';
import path from 'node:path';
import { buildTestApp, call, json, waitFor, type TestApp } from '../../test/helpers.ts';
import { cannedAnalysis } from '../../test/canned-engine.ts';
import { createEngine } from '../analysis/create-engine.ts';
import type { AnalysisEngine } from '../analysis/engine.ts';
import { fileUpload, TWO_NAMES_VTT as VTT, wavFile } from './files.fixtures.testkit.ts';
import type { Media } from './files.schemas.ts';

/** A promise and its settling function. */
function held(): { promise: Promise<void>; resolve: () => void } {
  let resolve!: () => void;
  const promise = new Promise<void>((res) => {
    resolve = res;
  });
  return { promise, resolve };
}

describe('a reader of attached audio that read its row just before the audio took its plain name', { timeout: 30_000 }, () => {
  let t: TestApp;
  /** The paths the engine was asked to analyse, and what it does before it opens one. */
  const analysed: string[] = [];
  let beforeOpen: () => Promise<void> = async () => undefined;
  before(async () => {
    const real = createEngine();
    const engine: AnalysisEngine = {
      ...real,
      // Opens the file as the real engine does first (a name that is gone: media_unreadable), then answers a canned analysis.
      analyzeMedia: async (input) => {
        analysed.push(input.path);
        await beforeOpen();
        await access(input.path).catch((err: Error) => {
          throw Object.assign(new Error(`cannot open media: ${err.message}`), { code: 'media_unreadable' });
        });
        return cannedAnalysis([6, 4]);
      },
    };
    t = await buildTestApp({ RATE_LIMIT_UPLOAD: '1000', RATE_LIMIT_FILES: '100000', RATE_LIMIT_DEFAULT: '100000' }, { engine });
    t.composed.worker?.start();
  });
  after(async () => t.close());

  const upload = (data: Buffer | string, filename: string, fields: Record<string, string> = {}) => call(t, t.main, { method: 'POST', url: '/v1/files', ...fileUpload(data, filename, fields) });
  let made = 0;
  async function transcript(): Promise<string> {
    const res = await upload(VTT.replace('tonight', `tonight, ${++made}`), 'talk.vtt');
    assert.equal(res.statusCode, 201, res.body);
    return json<Media>(res).id;
  }

  it('GET /v1/files/:id/content serves the audio (before: 404 "no longer stored")', async () => {
    const mediaId = await transcript();
    const { media, blobs } = t.services.stores;
    const files = t.services.files;
    const saved = { renameFile: media.renameFile.bind(media), remove: blobs.remove.bind(blobs), content: files.content.bind(files) };
    const [named, read, gone] = [held(), held(), held()];
    // The attach waits, its row naming the audio beside, until the content route has read the row.
    media.renameFile = async (...args) => {
      named.resolve();
      await read.promise;
      return saved.renameFile(...args);
    };
    blobs.remove = async (file) => {
      await saved.remove(file);
      if (path.basename(file).startsWith(`${mediaId}.`)) gone.resolve();
    };
    // The route opens the file once the name it read is gone.
    let reads = 0;
    files.content = async (...args) => {
      const m = await saved.content(...args);
      if (++reads === 1) {
        read.resolve();
        await gone.promise;
      }
      return m;
    };
    const audio = wavFile(2);
    try {
      const attached = upload(audio, 'talk.wav', { mediaId });
      await named.promise;
      const content = await call(t, t.main, { method: 'GET', url: `/v1/files/${mediaId}/content` });
      assert.equal(content.statusCode, 200, content.body);
      assert.ok(content.rawPayload.equals(audio), 'the audio, whole');
      assert.equal(reads, 2, 'the row was read again');
      assert.equal((await attached).statusCode, 201);
    } finally {
      media.renameFile = saved.renameFile;
      blobs.remove = saved.remove;
      files.content = saved.content;
    }
  });

  it('its analysis reads the row again and analyses the audio under its plain name (before: failed as media_unreadable)', async () => {
    const mediaId = await transcript();
    const { blobs } = t.services.stores;
    const placePlain = blobs.placePlain.bind(blobs);
    const [started, attached] = [held(), held()];
    analysed.length = 0;
    // The worker takes the task as the row names the audio beside; the audio takes its plain name
    // meanwhile, and the engine opens the name it was given once the attach is over.
    blobs.placePlain = async (...args) => {
      await started.promise;
      return placePlain(...args);
    };
    beforeOpen = async () => {
      if (analysed.length > 1) return;
      started.resolve();
      await attached.promise;
    };
    try {
      const res = await upload(wavFile(2), 'talk.wav', { mediaId });
      assert.equal(res.statusCode, 201, res.body);
      attached.resolve();
      const m = await waitFor(async () => {
        const now = json<Media>(await call(t, t.main, { method: 'GET', url: `/v1/files/${mediaId}` }));
        return now.analysis.status === 'ready' || now.analysis.status === 'failed' ? now : null;
      }, 20_000, 'the analysis to end');
      assert.equal(m.analysis.status, 'ready', JSON.stringify(m.analysis));
      assert.deepEqual(analysed.map((p) => path.basename(p).startsWith(`${mediaId}.`) ? 'beside' : path.basename(p)), ['beside', mediaId]);
    } finally {
      blobs.placePlain = placePlain;
      beforeOpen = async () => undefined;
      started.resolve();
      attached.resolve();
    }
  });
});
