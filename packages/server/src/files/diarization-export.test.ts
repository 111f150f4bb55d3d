// The diarization as RTTM, WebVTT and SRT (decisions §7): each parsed back gives the JSON
// segments; the WebVTT passes a WebVTT parser; SRT entries are numbered from 1; the route answers
// the right content type, 409 before the analysis is ready and 400 for an unknown format.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import webvtt from 'webvtt-parser';
import { parseTranscript, type MediaAnalysis } from '@rapport/analysis';
import { buildTestApp, call, json, type ErrorJson, type TestApp } from '../../test/helpers.ts';
import { newId } from '../ids.ts';
import { fileUpload, VTT, wavFile } from './files.fixtures.testkit.ts';
import { placeCues, segmentTexts, toRttm, toSrt, toWebVtt } from './diarization-export.ts';
import type { Diarization, Media } from './files.schemas.ts';

const { WebVTTParser } = webvtt;

/** Segments sorted by start, some overlapping, some short, running past an hour. */
function generated(n: number, seed: number): Diarization {
  let x = seed;
  const rand = () => ((x = (x * 1103515245 + 12345) % 2147483648) / 2147483648);
  const segments: Diarization['segments'] = [];
  let t = 0.13;
  for (let k = 0; k < n; k++) {
    const start = Math.round(t * 100) / 100;
    const end = Math.round((start + 0.3 + rand() * 25) * 100) / 100;
    segments.push({ speaker: Math.floor(rand() * 4), start, end });
    t = rand() < 0.2 ? start + 0.4 : end + rand() * 3; // every fifth one overlaps the last
  }
  return { mediaId: 'med_test', durationSec: t + 1, segments };
}

function parseRttm(text: string): { file: string; speaker: number; start: number; end: number }[] {
  return text.trimEnd().split('\n').map((line) => {
    const f = line.split(/\s+/);
    assert.equal(f.length, 10, line);
    assert.equal(f[0], 'SPEAKER');
    assert.equal(f[2], '1');
    assert.deepEqual([f[5], f[6], f[8], f[9]], ['<NA>', '<NA>', '<NA>', '<NA>']);
    const start = Number(f[3]);
    return { file: f[1] ?? '', speaker: Number(/^Speaker_(\d+)$/.exec(f[7] ?? '')?.[1]) - 1, start, end: start + Number(f[4]) };
  });
}

function parseSrt(text: string): { n: number; start: number; end: number; text: string }[] {
  const time = (s: string) => {
    const m = /^(\d\d):(\d\d):(\d\d),(\d\d\d)$/.exec(s);
    assert.ok(m, s);
    return Number(m[1]) * 3600 + Number(m[2]) * 60 + Number(m[3]) + Number(m[4]) / 1000;
  };
  return text.trimEnd().split('\n\n').map((block) => {
    const [n, times, ...lines] = block.split('\n');
    const [a, b] = (times ?? '').split(' --> ');
    return { n: Number(n), start: time(a ?? ''), end: time(b ?? ''), text: lines.join('\n') };
  });
}

const near = (a: number, b: number) => Math.abs(a - b) < 0.0006;

describe('diarization files', () => {
  const d = generated(400, 7);

  it('RTTM parsed back equals the JSON segments', () => {
    const parsed = parseRttm(toRttm(d));
    assert.equal(parsed.length, d.segments.length);
    assert.ok(d.segments.some((s) => s.end > 3600), 'past an hour');
    parsed.forEach((p, k) => {
      const s = d.segments[k]!;
      assert.equal(p.file, 'med_test');
      assert.equal(p.speaker, s.speaker);
      assert.ok(near(p.start, s.start) && near(p.end, s.end), `${JSON.stringify(p)} vs ${JSON.stringify(s)}`);
    });
  });

  it('WebVTT passes a WebVTT parser and carries the same segments, voices and text', () => {
    const texts = d.segments.map((_s, k) => (k % 3 === 0 ? `line ${k} <b> & --> more\n\nwith a blank line` : null));
    const vtt = toWebVtt(d, texts);
    const { cues, errors } = new WebVTTParser().parse(vtt, 'metadata');
    assert.deepEqual(errors, []);
    assert.equal(cues.length, d.segments.length);
    cues.forEach((c, k) => {
      const s = d.segments[k]!;
      assert.equal(c.id, String(k + 1));
      assert.ok(near(c.startTime, s.start) && near(c.endTime, s.end));
      const voice = c.tree.children[0];
      assert.equal(voice?.name, 'v');
      assert.equal(voice?.value, `Speaker ${s.speaker + 1}`);
      const text = voice?.children?.map((x) => x.value).join('') ?? '';
      if (k % 3 === 0) assert.match(text, new RegExp(`^line ${k} `));
      else assert.equal(text, `[Speaker ${s.speaker + 1} speaking]`);
    });
    // The check can fail: a broken file is reported.
    assert.ok(new WebVTTParser().parse(vtt.replace('WEBVTT', 'WEBVT'), 'metadata').errors.length > 0);
  });

  it('SRT entries are numbered from 1 with Speaker N: before the text', () => {
    const texts = d.segments.map((_s, k) => (k === 1 ? 'Hello\n\nthere' : null));
    const entries = parseSrt(toSrt(d, texts));
    assert.deepEqual(entries.map((e) => e.n), d.segments.map((_s, k) => k + 1));
    entries.forEach((e, k) => {
      const s = d.segments[k]!;
      assert.ok(near(e.start, s.start) && near(e.end, s.end));
    });
    assert.equal(entries[1]?.text, `Speaker ${d.segments[1]!.speaker + 1}: Hello there`);
    assert.equal(entries[0]?.text, `Speaker ${d.segments[0]!.speaker + 1}: [speaking]`);
  });

  it('without a transcript a cue names its speaker as a bracketed description, read back as a turn with no words', () => {
    const texts = d.segments.map(() => null);
    const names = (i: number) => ['Ada Lovelace', 'Bob', 'Speaker 3', 'Zoë'][i] ?? `Speaker ${i + 1}`;
    for (const file of [toWebVtt(d, texts, names), toSrt(d, texts, names)]) {
      const back = parseTranscript(file);
      assert.ok(back, 'parsed as a transcript');
      assert.deepEqual(back.cues.map((c) => c.speaker), d.segments.map((s) => names(s.speaker)));
      assert.deepEqual(back.cues.map((c) => c.text), d.segments.map(() => ''), 'no words: the name is not read as speech');
    }
    // A name with brackets of its own does not break the description.
    const one: Diarization = { mediaId: 'm', durationSec: 2, segments: [{ speaker: 0, start: 0, end: 1 }] };
    assert.deepEqual(parseTranscript(toWebVtt(one, [null], () => 'Ada [host]'))?.cues.map((c) => [c.speaker, c.text]), [['Ada [host]', '']]);
  });

  it('a cue shorter than a millisecond still ends after it starts', () => {
    const tiny: Diarization = { mediaId: 'm', durationSec: 1, segments: [{ speaker: 0, start: 0.5, end: 0.5002 }] };
    assert.deepEqual(new WebVTTParser().parse(toWebVtt(tiny, [null]), 'metadata').errors, []);
    assert.match(toSrt(tiny, [null]), /00:00:00,500 --> 00:00:00,501/);
  });

  it("each transcript cue goes to the segment of its speaker's voice that it overlaps most", () => {
    const segments = [{ speaker: 0, start: 0, end: 2 }, { speaker: 1, start: 1.5, end: 4 }, { speaker: 0, start: 4.2, end: 6 }];
    const transcript = { format: 'json' as const, cues: [
      { speaker: 'Ann', start: 0, end: 1.9, text: 'one' },
      { speaker: 'Bo', start: 1.6, end: 3.9, text: 'two' },
      { speaker: 'Ann', start: 3.8, end: 6, text: 'three' },
      { speaker: 'Cy', start: 0.1, end: 0.4, text: 'unknown name' },
    ] };
    assert.deepEqual(segmentTexts(segments, transcript, ['Ann', 'Bo']), ['one unknown name', 'two', 'three']);
    assert.deepEqual(segmentTexts(segments, null, ['Ann', 'Bo']), [null, null, null]);
  });
});

describe('segmentTexts at scale (issue 41, finding 2)', () => {
  /** The definition: each cue to the segment it overlaps most among its speaker's (or all), the first on a tie. */
  function naive(segments: Diarization['segments'], cues: { speaker: string | null; start: number; end: number; text: string }[], labels: (string | null)[]): (string | null)[] {
    const parts: string[][] = segments.map(() => []);
    for (const cue of cues) {
      const named = labels.includes(cue.speaker);
      let best = -1;
      let bestOverlap = 0;
      segments.forEach((s, k) => {
        if (named && labels[s.speaker] !== cue.speaker) return;
        const overlap = Math.min(s.end, cue.end) - Math.max(s.start, cue.start);
        if (overlap > bestOverlap) {
          bestOverlap = overlap;
          best = k;
        }
      });
      if (best >= 0) parts[best]?.push(cue.text);
    }
    return parts.map((p) => (p.length ? p.join(' ') : null));
  }

  it('places every cue as the definition does, on random diarizations and transcripts', () => {
    for (let seed = 1; seed <= 20; seed++) {
      const d = generated(60 + seed * 5, seed);
      let x = seed * 7919;
      const rand = () => ((x = (x * 1103515245 + 12345) % 2147483648) / 2147483648);
      const labels = ['Ann', seed % 3 ? 'Bo' : null, 'Ann', null].slice(0, 2 + (seed % 3));
      const cues = Array.from({ length: 80 }, (_, k) => {
        const start = Math.round(rand() * (d.durationSec ?? 100) * 100) / 100;
        return { speaker: [null, 'Ann', 'Bo', 'Cy'][Math.floor(rand() * 4)] ?? null, start, end: Math.round((start + rand() * 8) * 100) / 100, text: `cue${k}` };
      });
      assert.deepEqual(segmentTexts(d.segments, { format: 'webvtt', cues }, labels), naive(d.segments, cues, labels), `seed ${seed}`);
    }
  });

  // The work, counted rather than timed (a clock in a test fails on a busy host and passes a
  // regression on a fast one): the segments weighed for each cue must be the few it overlaps, not
  // all of its speaker's. cues × segments here is 186 million; bench/segment-texts.ts times it.
  it('places 20,000 cues on 18,642 segments weighing only the segments each overlaps, one segment running the whole hour', () => {
    const step = 3600 / 18_642;
    const segments = [
      ...Array.from({ length: 18_642 }, (_, k) => ({ speaker: k % 2, start: k * step, end: k * step + step * 0.9 })),
      // One voice under all the others: a search that walks back while the latest end reaches the
      // cue walked back to it from every cue of that speaker.
      { speaker: 0, start: 0, end: 3600 },
    ];
    const cues = Array.from({ length: 20_000 }, (_, k) => ({ speaker: k % 2 ? 'Bob' : 'Alice', start: k * 0.18, end: k * 0.18 + 0.17, text: `cue ${k}` }));
    const { texts, weighed } = placeCues(segments, { format: 'webvtt', cues }, ['Alice', 'Bob']);
    const placed = texts.reduce((n, t) => n + (t?.split('cue ').length ?? 1) - 1, 0);
    assert.ok(placed > 0.9 * cues.length, `${placed} of ${cues.length} cues placed (a few of Bob's fall between his segments)`);
    assert.ok(weighed >= placed, `${weighed} weighed for ${placed} cues placed`);
    assert.ok(weighed <= 3 * cues.length, `${weighed} segments weighed for ${cues.length} cues`);
    // The answers at this size are the definition's: every 40th cue placed alone (the naive
    // reference over all segments costs 500 × 18,643 here, not 20,000 × 18,643).
    const sample = cues.filter((_c, k) => k % 40 === 0);
    assert.deepEqual(segmentTexts(segments, { format: 'webvtt', cues: sample }, ['Alice', 'Bob']), naive(segments, sample, ['Alice', 'Bob']));
  });

  it('weighs segments in proportion to the cues: four times the transcript, about four times the work', () => {
    const weighedAt = (n: number) => {
      const step = 3600 / n;
      const segments = Array.from({ length: n }, (_, k) => ({ speaker: k % 3, start: k * step, end: k * step + step * (k % 7 === 0 ? 2.5 : 0.9) }));
      const cues = Array.from({ length: n }, (_, k) => ({ speaker: [null, 'Ann', 'Bo'][k % 3] ?? null, start: k * step, end: k * step + step * 1.5, text: `c${k}` }));
      return placeCues(segments, { format: 'srt', cues }, ['Ann', 'Bo', null]).weighed;
    };
    const [small, large] = [weighedAt(2500), weighedAt(10_000)];
    assert.ok(small > 0);
    assert.ok(large / small < 4.5, `${small} weighed at N, ${large} at 4N`);
  });
});

describe('GET /v1/files/:id/diarization?format=', () => {
  let t: TestApp;
  before(async () => {
    t = await buildTestApp({ RATE_LIMIT_UPLOAD: '1000', RATE_LIMIT_FILES: '1000' });
  });
  after(async () => t.close());
  const get = (url: string) => call(t, t.main, { method: 'GET', url });
  const upload = async (data: Buffer | string, name: string) => json<Media>(await call(t, t.main, { method: 'POST', url: '/v1/files', ...fileUpload(data, name) }));

  it('answers RTTM, WebVTT and SRT with their content types; 409 before ready; 400 for another format', async () => {
    const media = await upload(wavFile(2), 'a.wav');
    const early = await get(`/v1/files/${media.id}/diarization?format=vtt`);
    assert.equal(early.statusCode, 409);
    const analysis = {
      version: 1, durationSec: 2, turns: [], transcript: null,
      segments: [{ speaker: 0, start: 0.2, end: 1.0 }, { speaker: 1, start: 1.1, end: 1.9 }],
      speakers: [0, 1].map((index) => ({ index, speechSec: 0.8, firstSpeechSec: 0.2, label: index ? 'Bob' : null, voiceprint: [1, 0], metrics: {} })),
      method: { vad: 'test', diarization: 'test', voiceprint: 'test', realTimeFactor: null },
    } as unknown as MediaAnalysis;
    await t.services.stores.media.completeAnalysis(media.id, analysis, [0, 1].map((speakerIndex) => ({ speakerIndex, entityId: newId('ent'), speechSec: 0.8, create: { voiceprint: [1, 0], label: null } })));

    // Decisions §17: one name everywhere: the person's label, else the transcript's, else "Speaker N" from 1.
    const rttm = await get(`/v1/files/${media.id}/diarization?format=rttm`);
    assert.equal(rttm.statusCode, 200);
    assert.match(String(rttm.headers['content-type']), /^text\/plain/);
    assert.equal(rttm.body, `SPEAKER ${media.id} 1 0.200 0.800 <NA> <NA> Speaker_1 <NA> <NA>\nSPEAKER ${media.id} 1 1.100 0.800 <NA> <NA> Bob <NA> <NA>\n`);
    const vtt = await get(`/v1/files/${media.id}/diarization?format=vtt`);
    assert.match(String(vtt.headers['content-type']), /^text\/vtt/);
    assert.deepEqual(new WebVTTParser().parse(vtt.body, 'metadata').errors, []);
    assert.match(vtt.body, /<v Speaker 1>\[Speaker 1 speaking\]\n/);
    assert.match(vtt.body, /<v Bob>\[Bob speaking\]\n/);
    const srt = await get(`/v1/files/${media.id}/diarization?format=srt`);
    assert.match(String(srt.headers['content-type']), /^application\/x-subrip/);
    assert.equal(srt.body, '1\n00:00:00,200 --> 00:00:01,000\nSpeaker 1: [speaking]\n\n2\n00:00:01,100 --> 00:00:01,900\nBob: [speaking]\n');
    // Naming the first speaker's person renames them in every file.
    const first = json<Media>(await get(`/v1/files/${media.id}`)).analysis.speakers[0]?.entityId ?? '';
    assert.equal((await call(t, t.main, { method: 'PATCH', url: `/v1/entities/${first}`, payload: { label: 'Ada Lovelace' } })).statusCode, 200);
    assert.match((await get(`/v1/files/${media.id}/diarization?format=rttm`)).body, /<NA> <NA> Ada_Lovelace <NA> <NA>\n/);
    assert.match((await get(`/v1/files/${media.id}/diarization?format=vtt`)).body, /<v Ada Lovelace>\[Ada Lovelace speaking\]/);
    assert.match((await get(`/v1/files/${media.id}/diarization?format=srt`)).body, /^1\n.*\nAda Lovelace: \[speaking\]\n/);
    const plain = json<Diarization>(await get(`/v1/files/${media.id}/diarization?format=json`));
    assert.equal(plain.segments.length, 2);

    const bad = await get(`/v1/files/${media.id}/diarization?format=textgrid`);
    assert.equal(bad.statusCode, 400);
    assert.equal(json<ErrorJson>(bad).error.code, 'VALIDATION_FAILED');
    assert.equal((await get(`/v1/files/${newId('med')}/diarization?format=rttm`)).statusCode, 404);
  });

  it("a transcript's file carries its cue text, each line under its speaker's name", async () => {
    const tr = await upload(VTT, 'talk.vtt');
    const srt = parseSrt((await get(`/v1/files/${tr.id}/diarization?format=srt`)).body);
    assert.deepEqual(srt.map((e) => e.text), ['Alice: Hello there, how are you doing today?', 'Bob: Quite well, thank you. And you?', 'Alice: Very well.']);
    const vtt = (await get(`/v1/files/${tr.id}/diarization?format=vtt`)).body;
    assert.match(vtt, /<v Bob>Quite well, thank you\. And you\?/);
  });

  it('the OpenAPI document lists the query and the text media types', async () => {
    const doc = json<{ paths: Record<string, { get?: { parameters?: { name: string }[]; responses: Record<string, { content?: Record<string, unknown> }> } }> }>(await call(t, null, { method: 'GET', url: '/v1/openapi.json' }));
    const op = doc.paths['/v1/files/{id}/diarization']?.get;
    assert.ok(op?.parameters?.some((p) => p.name === 'format'));
    assert.deepEqual(Object.keys(op?.responses['200']?.content ?? {}).sort(), ['application/json', 'application/x-subrip', 'text/plain', 'text/vtt']);
  });
});
