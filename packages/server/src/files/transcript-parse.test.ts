// Issue 32, finding 1: the parse worker answers what the store writes and what the resource
// shows (the transcript's JSON and its summary), never the cues: cloning 20,000 cues back onto
// the event loop and serialising them there cost it tens of milliseconds per upload.
import { after, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseTranscript } from '@rapport/analysis';
import { parseTranscriptFile } from './transcript-parse.ts';
import { summarize } from './media-summary.ts';
import { VTT } from './files.fixtures.testkit.ts';

const dir = mkdtempSync(path.join(os.tmpdir(), 'rapport-transcript-parse-'));

describe('the transcript parse worker', () => {
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('answers the JSON the store keeps and the summary, made in the worker, and no cues', async () => {
    const file = path.join(dir, 'talk.vtt');
    writeFileSync(file, VTT);
    const answer = await parseTranscriptFile(file, 100);
    assert.ok('transcript' in answer, JSON.stringify(answer));
    const parsed = parseTranscript(VTT);
    assert.ok(parsed);
    const t = answer.transcript;
    assert.equal('cues' in t, false, 'the cues crossed back to the event loop');
    assert.equal(t.json, JSON.stringify(parsed), 'what the store writes is what it wrote before');
    assert.deepEqual(t.summary, summarize('transcript', null, parsed));
    assert.equal(t.format, 'webvtt');
    assert.equal(t.durationSec, Math.max(...parsed.cues.map((c) => c.end)));
  });

  it('answers the same errors as before', async () => {
    const notUtf8 = path.join(dir, 'latin1.vtt');
    writeFileSync(notUtf8, Buffer.from([0x57, 0x45, 0x42, 0x56, 0x54, 0x54, 0x0a, 0xe9, 0xff]));
    assert.deepEqual(await parseTranscriptFile(notUtf8, 100), { error: 'not_utf8' });
    const prose = path.join(dir, 'prose.txt');
    writeFileSync(prose, 'just some words\n');
    assert.deepEqual(await parseTranscriptFile(prose, 100), { error: 'not_transcript' });
    const many = path.join(dir, 'many.vtt');
    writeFileSync(many, VTT);
    assert.deepEqual(await parseTranscriptFile(many, 1), { error: 'too_many_cues', cues: parseTranscript(VTT)?.cues.length });
  });
});
