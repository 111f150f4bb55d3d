// Runs in a worker thread (transcript-parse.ts): reads an uploaded text file, checks it is UTF-8,
// parses it as a transcript and counts its cues, then makes the JSON the store keeps and the
// summary the resource shows, so that none of this holds the API's event loop (a 16 MiB WebVTT of
// 351k cues held it 1.3 s; cloning 20,000 cues back and serialising them there still cost it
// tens of milliseconds per upload: issue 32, finding 1). Only strings and the summary cross back.
import { parentPort, workerData } from 'node:worker_threads';
import { readFile } from 'node:fs/promises';
import { parseTranscript } from '@rapport/analysis';
import type { ParseRequest, ParseAnswer } from './transcript-parse.ts';
import { TranscriptText } from './transcript-text.ts';
import { stripControls, stripControlsInText } from '../control-chars.ts';

async function parse({ path, maxCues }: ParseRequest): Promise<ParseAnswer> {
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(await readFile(path));
  } catch {
    return { error: 'not_utf8' };
  }
  const transcript = parseTranscript(text);
  if (!transcript) return { error: 'not_transcript' };
  if (transcript.cues.length > maxCues) return { error: 'too_many_cues', cues: transcript.cues.length };
  // Speaker names and words as stored: without control characters, which a terminal printing an
  // export or the CLI's output would obey (issue 41, finding 9). A name left empty is no name.
  for (const cue of transcript.cues) {
    if (cue.speaker !== null) cue.speaker = stripControls(cue.speaker).trim() || null;
    cue.text = stripControlsInText(cue.text);
  }
  // Its analysis as a transcript on its own (decisions §19) is made here too, off the event loop.
  const { format, json, summary, durationSec, analysis } = TranscriptText.of(transcript);
  return { transcript: { format, json, summary, durationSec, analysis } };
}

parse(workerData as ParseRequest).then(
  (answer) => parentPort?.postMessage(answer),
  (err: unknown) => parentPort?.postMessage({ error: 'failed', message: String(err) } satisfies ParseAnswer),
);
