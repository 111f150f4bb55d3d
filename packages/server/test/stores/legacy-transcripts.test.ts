// The store suite (one suite, two backends): a transcript stored on its own before transcripts
// were analysed from their cues (decisions §19) has no analysis. Every read of it made one from
// its cues on the API's event loop, at each get, export, metrics request and job (half a second of
// CPU for 20,000 cues). The store makes it once, off the event loop, and keeps it in the row. The
// analyser is counted through the store's constructor (the worker thread of the service inside).
// The start-up sweep of files without a row asks only whether the row exists: it loaded each row
// whole, so every start made the owed analysis of every such transcript (and parsed every row).
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, rmSync } from 'node:fs';
import path from 'node:path';
import { analyzeTranscript, parseTranscript, type Transcript } from '@rapport/analysis';
import { BACKENDS, newWorkspace, postgresMissing, type OpenedTestStores } from '../store-backends.ts';
import { newId } from '../../src/ids.ts';
import { storeDb } from '../../src/compose/stores.ts';
import { SqlMediaStore } from '../../src/files/media.store.ts';
import { analyseInWorker, type TranscriptAnalyser } from '../../src/files/transcript-analysis.ts';
import { toMediaResource } from '../../src/files/media-resource.ts';
import { summarize } from '../../src/files/media-summary.ts';
import { TWO_NAMES_VTT } from '../../src/files/files.fixtures.testkit.ts';
import { FileBlobStore } from '../../src/store/blob-store.ts';
import { tempDir } from '../helpers.ts';

const pgSkip = await postgresMissing();
const transcript = parseTranscript(TWO_NAMES_VTT) as Transcript;

/** The service's analyser, counted; `meanwhile` runs before it answers (a write racing the read). */
function counted(meanwhile: () => Promise<void> = async () => undefined): { analyse: TranscriptAnalyser; calls: () => number } {
  let calls = 0;
  return {
    calls: () => calls,
    analyse: async (json) => {
      calls++;
      const answer = await analyseInWorker(json);
      await meanwhile();
      return answer;
    },
  };
}

for (const backend of BACKENDS) {
  describe(`a transcript stored before it was analysed from its cues (${backend.name})`, { skip: backend.name === 'postgres' && pgSkip ? pgSkip : false }, () => {
    let t: OpenedTestStores;
    let ws = '';
    before(async () => {
      t = await backend.open();
      ws = await newWorkspace(t.stores);
    });
    after(() => t?.close());

    /** A transcript row as such a row is: ready, no analysis, no engine version, no entities; its summary that of its cues, or none (`summary: false`: written before summaries too). */
    async function legacyRow(opts: { summary?: boolean } = {}): Promise<string> {
      const id = newId('med');
      await t.stores.media.insert({
        id, workspaceId: ws, kind: 'transcript', filename: 'old.vtt', contentType: 'text/vtt', sizeBytes: TWO_NAMES_VTT.length, sha256: '0'.repeat(64),
        durationSec: 17.7, label: null, storagePath: `/tmp/${id}`, transcript, analysisStatus: 'ready',
      });
      await t.exec('DELETE FROM appearances WHERE media_id = ?', id);
      const summary = opts.summary === false ? null : JSON.stringify(summarize('transcript', null, transcript));
      await t.exec('UPDATE media SET analysis_json = NULL, engine_version = NULL, summary_json = ? WHERE id = ?', summary, id);
      return id;
    }

    const stored = async (id: string) => (await t.rows<{ analysis_json: string | null; summary_json: string | null; engine_version: string | null; changed_seq: number }>(
      'SELECT analysis_json, summary_json, engine_version, changed_seq FROM media WHERE id = ?', id,
    ))[0];

    it('reads it twice (get, then load, getRow and get again): the analysis is made once, stored, and read back the same', async () => {
      const id = await legacyRow();
      const before = await stored(id);
      const spy = counted();
      const media = new SqlMediaStore(storeDb(t.stores), undefined, spy.analyse);
      const first = await media.get(ws, id);
      assert.equal(spy.calls(), 1);
      // What the read answered before it was stored: the analysis of its cues.
      assert.deepEqual(first?.analysis, JSON.parse(JSON.stringify(analyzeTranscript(transcript))));
      const row = await stored(id);
      assert.ok(row?.analysis_json, 'stored in the row');
      assert.deepEqual(JSON.parse(row.analysis_json), first?.analysis);
      assert.equal(row.summary_json, before?.summary_json, 'its summary is left as it was');
      assert.equal(row.engine_version, null, 'and its engine version');
      assert.equal(row.changed_seq, before?.changed_seq, 'no numbered change: no stream shows one');
      assert.deepEqual((await media.load(id))?.analysis, first?.analysis);
      assert.deepEqual(JSON.parse((await media.getRow(ws, id))?.analysis_json ?? 'null'), first?.analysis);
      assert.deepEqual((await media.get(ws, id))?.analysis, first?.analysis);
      assert.equal(spy.calls(), 1, 'read again, not made again');
      // Another process's store finds it made.
      const other = counted();
      assert.deepEqual((await new SqlMediaStore(storeDb(t.stores), undefined, other.analyse).get(ws, id))?.analysis, first?.analysis);
      assert.equal(other.calls(), 0);
    });

    it('reads at once share one analysis; getRow without the transcript answers it without the transcript', async () => {
      const id = await legacyRow();
      const spy = counted();
      const media = new SqlMediaStore(storeDb(t.stores), undefined, spy.analyse);
      const [a, b, row] = await Promise.all([media.get(ws, id), media.load(id), media.getRow(ws, id, { transcript: false })]);
      assert.equal(spy.calls(), 1);
      assert.deepEqual(a?.analysis, b?.analysis);
      assert.deepEqual(JSON.parse(row?.analysis_json ?? 'null'), a?.analysis);
      assert.equal(row?.transcript_json, null, 'as the columns give a row with an analysis');
    });

    it('a row without a summary keeps the resource it showed: the summary of its cues, not of the analysis', async () => {
      const id = await legacyRow({ summary: false });
      const media = new SqlMediaStore(storeDb(t.stores), undefined, counted().analyse);
      const light = await media.getLight(ws, id);
      assert.ok(light);
      const resourceBefore = toMediaResource(light, new Map());
      await t.exec('UPDATE media SET summary_json = NULL WHERE id = ?', id);
      await media.get(ws, id);
      const after = await media.getLight(ws, id);
      assert.ok(after);
      assert.deepEqual(toMediaResource(after, new Map()), resourceBefore);
      assert.equal(resourceBefore.analysis.speakers.every((s) => s.entityId === null), true);
    });

    it('a row changed while its analysis was made is not written; that read still answers the analysis of what it read', async () => {
      const id = await legacyRow();
      const spy = counted(() => t.exec('UPDATE media SET changed_seq = changed_seq + 1000 WHERE id = ?', id));
      const media = new SqlMediaStore(storeDb(t.stores), undefined, spy.analyse);
      assert.ok((await media.get(ws, id))?.analysis);
      assert.equal((await stored(id))?.analysis_json, null);
    });

    it('the start-up sweep of files without a row reads no row: nothing is analysed, a spoiled row is never parsed', async () => {
      const legacy = await legacyRow();
      const spoiled = await legacyRow();
      await t.exec("UPDATE media SET analysis_json = '{' WHERE id = ?", spoiled);
      const spy = counted();
      const media = new SqlMediaStore(storeDb(t.stores), undefined, spy.analyse);
      const dir = tempDir();
      try {
        const blobs = new FileBlobStore(dir);
        const orphan = newId('med');
        for (const id of [legacy, spoiled, orphan]) {
          const temp = blobs.createTemp();
          temp.stream.end('x');
          await new Promise<void>((r) => temp.stream.once('close', () => r()));
          await blobs.commit(temp.path, id);
        }
        // As serve.ts sweeps (files older than 0 ms here, where it waits a minute).
        assert.equal(await blobs.sweepOrphans((ids) => media.filesWithRows(ids), -1), 1);
        assert.deepEqual(readdirSync(path.join(dir, 'media')).sort(), [legacy, spoiled].sort());
        assert.equal(spy.calls(), 0, 'no owed analysis made');
        await assert.rejects(media.load(spoiled), SyntaxError, 'load parses the row: the sweep would have stopped the start');
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    });
  });
}
