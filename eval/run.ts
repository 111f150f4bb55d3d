// Evaluation of the engine on a folder built like the shared dev set:
//   npm run eval -- --dataset DIR [--files dev01,dev02] [--tune '{"diarization":{"settings":{"count":{...}}}}'] [--json OUT]
//                  [--model FOLD-LDA.json] [--segmentation FOLD.onnx] [--count oracle] [--dump DIR]
//                  [--transcripts [--transcript-jitter SEC] [--transcript-coarse] [--transcript-shift SEC]]
// --count oracle gives each file its reference speaker count as an exact hint.
// --dump DIR writes DIR/<file>.json: { analysis, speakerPurity } (eval/confidence-calibration.ts).
// --transcripts attaches devNN.json as the transcript (boundaries moved by up to ±SEC; coarse:
// backchannels dropped and a speaker's consecutive utterances merged into one cue; shift: every
// time moved by SEC, as a subtitle file offset from its media).
// Prints DER (missed / false alarm / confusion) at collar 0.25 s and 0 with overlap scored, the
// exact speaker-count rate, talk-share error, cross-recording identity P/R/F1 (speakers linked
// file after file with linkSpeakers), selector accuracy and the real-time factor.
import { parseArgs } from 'node:util';
import { join } from 'node:path';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { analyzeMedia, type AnalysisOptions } from '../packages/analysis/src/analyze.ts';
import { CepstralVoiceprint, linkSpeakers, SAME_SPEAKER_THRESHOLD, type VoiceprintExtractor } from '../packages/analysis/src/speech/voiceprint.ts';
import { EmbeddingVoiceprint } from '../packages/analysis/src/speech/embedding-voiceprint.ts';
import { TrainedVoiceprint, type VoiceprintModel } from '../packages/analysis/src/speech/trained-voiceprint.ts';
import { SPEAKER_LDA } from '../packages/analysis/src/speech/diarization/speaker-lda.model.ts';
import { enoughSpeech } from '../packages/analysis/src/speech/speech-sufficiency.ts';
import { resolveSelector, type Selector } from '../packages/analysis/src/matching/selectors.ts';
import type { MediaAnalysis, Transcript } from '../packages/analysis/src/types.ts';
import { seededRandom } from '../packages/analysis/src/behavior/stats.ts';
import { readManifest, readRttm, type ManifestFile } from './dataset.ts';
import { scoreDiarization, type DerResult, type Seg } from './der.ts';
import { speakerPurity } from './purity.ts';
import { pairwiseIdentity, type Appearance } from './identity.ts';
import type { SetSummary } from './seed-table.ts';
import { parseEmbeddingModel, type LdaEmbeddingModel } from '../packages/analysis/src/speech/diarization/window-embedding.ts';
import { loadOnnxEmbedding } from '../packages/analysis/src/speech/diarization/onnx-embedding.ts';
import { loadSegmentationEnsemble } from '../packages/analysis/src/speech/segmentation/ensemble.ts';
import { formatEvents, referenceTurnTaking, scoreTurnTaking, sumTurnTaking, type RefUtterance, type TurnTakingScore } from './turn-taking.ts';

export interface FileResult {
  file: ManifestFile;
  analysis: MediaAnalysis;
  elapsedSec: number;
  der25: DerResult;
  der0: DerResult;
  /** hyp speaker index -> reference id */
  toRef: Map<number, string>;
  turnTaking: TurnTakingScore;
}

function hypSegments(a: MediaAnalysis): Seg[] {
  return a.segments.map((s) => ({ speaker: String(s.speaker), start: s.start, end: s.end }));
}

/**
 * The file's utterance-level ground truth (devNN.json, the service's transcript JSON shape) as an
 * attached transcript, each cue boundary moved by up to ±jitterSec (seeded) so that it is no
 * more exact than a human-made transcript, and then all by shiftSec.
 */
export function devTranscript(dir: string, file: ManifestFile, jitterSec: number, coarse = false, shiftSec = 0): Transcript {
  const data = JSON.parse(readFileSync(join(dir, file.utterances), 'utf8')) as { segments: { speaker: string; start: number; end: number; text?: string; kind?: string }[] };
  let segments = data.segments;
  if (coarse) {
    // As captions usually are: no backchannels, and one cue per run of a speaker's utterances.
    segments = [];
    for (const seg of data.segments) {
      if (seg.kind === 'backchannel') continue;
      const last = segments[segments.length - 1];
      if (last && last.speaker === seg.speaker && seg.start - last.end < 2) segments[segments.length - 1] = { ...last, end: Math.max(last.end, seg.end), text: `${last.text ?? ''} ${seg.text ?? ''}`.trim() };
      else segments.push(seg);
    }
  }
  const rand = seededRandom(0x9e3779b9 ^ file.name.length);
  const move = (x: number): number => Math.max(0, x + shiftSec + (rand() * 2 - 1) * jitterSec);
  const cues = segments.map((s) => {
    const start = move(s.start);
    return { speaker: s.speaker, start, end: Math.max(start + 0.05, move(s.end)), text: s.text ?? '' };
  });
  return { format: 'json', cues };
}

export async function evaluateFile(dir: string, file: ManifestFile, options: AnalysisOptions): Promise<FileResult> {
  const t = performance.now();
  const analysis = await analyzeMedia({ path: join(dir, file.wav), ...options });
  const elapsedSec = (performance.now() - t) / 1000;
  const ref = readRttm(join(dir, file.rttm));
  const hyp = hypSegments(analysis);
  const der25 = scoreDiarization(ref, hyp, 0.25);
  const der0 = scoreDiarization(ref, hyp, 0);
  const toRef = new Map<number, string>();
  for (const [h, r] of der25.mapping) toRef.set(Number(h), r);
  const utterances = (JSON.parse(readFileSync(join(dir, file.utterances), 'utf8')) as { segments: RefUtterance[] }).segments;
  const turnTaking = scoreTurnTaking(analysis, referenceTurnTaking(utterances, ref), toRef);
  return { file, analysis, elapsedSec, der25, der0, toRef, turnTaking };
}

function selectorCases(r: FileResult): { ok: boolean; what: string }[] {
  const ctx = { speakerEntityIds: r.analysis.speakers.map(() => null), entities: {} };
  const resolve = (sel: Selector): string | null => {
    const res = resolveSelector(r.analysis, { ...sel, on_miss: 'error' }, ctx);
    return res.ok ? (r.toRef.get(res.speakerIndex) ?? `unmapped#${res.speakerIndex}`) : null;
  };
  const s = r.file.selectors;
  const out: { ok: boolean; what: string }[] = [];
  const got = resolve({ strategy: 'dominant' });
  out.push({ ok: got === s.dominant.expected, what: `dominant: ${got} vs ${s.dominant.expected}` });
  for (const c of s.speaker_index) {
    const g = resolve({ strategy: 'speaker_index', speaker_index: c.speaker_index });
    out.push({ ok: g === c.expected, what: `speaker_index ${c.speaker_index}: ${g} vs ${c.expected}` });
  }
  for (const c of s.timerange) {
    const g = resolve({ strategy: 'timerange', timerange: { start_seconds: c.start_seconds, end_seconds: c.end_seconds } });
    out.push({ ok: g === c.expected, what: `timerange ${c.start_seconds}-${c.end_seconds}: ${g} vs ${c.expected}` });
  }
  return out;
}

/**
 * Links speakers file after file as the service does (entities keep the mean of their
 * appearances' voiceprints; a speaker with too little speech to judge, decisions §16, joins an
 * entity its voice matches but founds none).
 */
export function linkAcrossFiles(results: FileResult[], threshold: number): Appearance[] {
  const entities: { entityId: string; voiceprint: number[]; n: number }[] = [];
  const appearances: Appearance[] = [];
  for (const r of results) {
    const vps = r.analysis.speakers.map((s) => s.voiceprint);
    const linked = linkSpeakers(vps, entities, threshold);
    const mappedRefs = new Set<string>();
    linked.forEach((id, s) => {
      let entity = entities.find((e) => e.entityId === id);
      if (!entity && !enoughSpeech(r.analysis.speakers[s]!.speechSec)) {
        const ref = r.toRef.get(s);
        if (ref) mappedRefs.add(ref);
        appearances.push({ file: r.file.name, entity: `unlinked:${r.file.name}:${s}`, ref: ref ?? `spurious:${r.file.name}:${s}` });
        return;
      }
      if (!entity) {
        entity = { entityId: `E${entities.length + 1}`, voiceprint: [...vps[s]!], n: 0 };
        entities.push(entity);
      }
      const n = entity.n;
      entity.voiceprint = entity.voiceprint.map((v, d) => (v * n + vps[s]![d]!) / (n + 1));
      entity.n = n + 1;
      const ref = r.toRef.get(s);
      if (ref) mappedRefs.add(ref);
      appearances.push({ file: r.file.name, entity: entity.entityId, ref: ref ?? `spurious:${r.file.name}:${s}` });
    });
    // Reference speakers that no hypothesis speaker stands for: their links are all missed.
    for (const ref of r.file.speakers) if (!mappedRefs.has(ref)) appearances.push({ file: r.file.name, entity: `missed:${r.file.name}:${ref}`, ref });
  }
  return appearances;
}

/** A file's talk-share error: the mean over its speakers (null without any). */
function meanShareError(errs: number[]): number | null {
  return errs.length ? errs.reduce((a, b) => a + b, 0) / errs.length : null;
}

function talkShareErrors(r: FileResult): number[] {
  const errs: number[] = [];
  const hypShare = new Map<number, number>(r.analysis.speakers.map((s) => [s.index, s.metrics.talkShare]));
  for (const ref of r.file.speakers) {
    const h = [...r.toRef].find(([, v]) => v === ref)?.[0];
    errs.push(Math.abs((h === undefined ? 0 : (hypShare.get(h) ?? 0)) - (r.file.talk_share[ref] ?? 0)) * 100);
  }
  for (const [h, share] of hypShare) if (!r.toRef.has(h) && r.file.speakers.length > 0) errs.push(share * 100);
  return errs;
}

const pct = (x: number | null): string => (x === null ? '-' : (100 * x).toFixed(1));

interface EvalArgs {
  dir: string;
  files: ManifestFile[];
  options: AnalysisOptions;
  threshold: number;
  quiet: boolean;
  transcripts: boolean;
  jitter: number;
  coarse: boolean;
  shift: number;
  /** A folder to write each file's analysis and its speakers' purity to (eval/purity.ts; eval/confidence-calibration.ts reads them). */
  dump?: string;
  /** 'oracle': the reference count is given as the user's exact count (a diagnostic: how much of the error is the count's, and what a user who states the count gets). */
  count?: 'oracle';
}

interface SetResult {
  summary: SetSummary;
  results: FileResult[];
  /** The per-file table and the summary table, as printed. */
  report: string;
}

/** Analyses every file with the given options and scores the set. */
async function evaluateSet(a: EvalArgs): Promise<SetResult> {
  const results: FileResult[] = [];
  const rows: string[] = [];
  rows.push('| file | dur s | spk ref/hyp | DER 0.25 % (miss / FA / conf) | DER 0 % | talk-share err pp | selectors | RTF |');
  rows.push('|---|---|---|---|---|---|---|---|');
  let selOk = 0;
  let selTotal = 0;
  const shareErrs: number[] = [];
  const failures: string[] = [];
  for (const file of a.files) {
    const transcript = a.transcripts ? devTranscript(a.dir, file, a.jitter, a.coarse, a.shift) : undefined;
    let options = transcript ? { ...a.options, transcript } : a.options;
    if (a.count === 'oracle' && file.num_speakers > 0) {
      options = { ...options, speakers: { exact: file.num_speakers } };
    }
    const r = await evaluateFile(a.dir, file, options);
    results.push(r);
    if (a.dump) dumpAnalysis(a.dump, a.dir, r);
    const d = r.der25;
    const sc = d.scored;
    const sel = selectorCases(r);
    selOk += sel.filter((c) => c.ok).length;
    selTotal += sel.length;
    for (const c of sel) if (!c.ok) failures.push(`${file.name} ${c.what}`);
    const errs = talkShareErrors(r);
    shareErrs.push(...errs);
    const parts = sc > 0 ? `${pct(d.der)} (${pct(d.missed / sc)} / ${pct(d.falseAlarm / sc)} / ${pct(d.confusion / sc)})` : `FA ${d.falseAlarm.toFixed(1)} s`;
    rows.push(
      `| ${file.name} | ${file.duration_s.toFixed(1)} | ${file.num_speakers}/${r.analysis.speakers.length} | ${parts} | ${pct(r.der0.der)} | ${meanShareError(errs)?.toFixed(1) ?? '-'} | ${sel.filter((c) => c.ok).length}/${sel.length} | ${(r.elapsedSec / file.duration_s).toFixed(4)} |`,
    );
    if (!a.quiet) console.error(rows[rows.length - 1]);
  }
  const sum = (f: (r: FileResult) => number): number => results.reduce((x, r) => x + f(r), 0);
  const scored25 = sum((r) => r.der25.scored);
  const scored0 = sum((r) => r.der0.scored);
  const der25 = (sum((r) => r.der25.missed + r.der25.falseAlarm + r.der25.confusion) / scored25) || 0;
  const der0 = (sum((r) => r.der0.missed + r.der0.falseAlarm + r.der0.confusion) / scored0) || 0;
  const countOk = results.filter((r) => r.analysis.speakers.length === r.file.num_speakers).length;
  const identity = pairwiseIdentity(linkAcrossFiles(results, a.threshold));
  // Identity at other thresholds, to calibrate the shipped one (SAME_SPEAKER_THRESHOLD).
  const identitySweep = Array.from({ length: 35 }, (_, i) => 0.3 + 0.02 * i).map((t) => ({ threshold: Math.round(t * 100) / 100, ...pairwiseIdentity(linkAcrossFiles(results, t)) }));
  const audioSec = sum((r) => r.file.duration_s);
  const elapsed = sum((r) => r.elapsedSec);
  const summary: SetSummary = {
    files: results.length,
    der_collar_025: der25,
    missed_025: sum((r) => r.der25.missed) / scored25,
    false_alarm_025: sum((r) => r.der25.falseAlarm) / scored25,
    confusion_025: sum((r) => r.der25.confusion) / scored25,
    der_collar_0: der0,
    missed_0: sum((r) => r.der0.missed) / scored0,
    false_alarm_0: sum((r) => r.der0.falseAlarm) / scored0,
    confusion_0: sum((r) => r.der0.confusion) / scored0,
    speaker_count_exact: countOk / results.length,
    talk_share_error_pp: shareErrs.reduce((x, y) => x + y, 0) / Math.max(1, shareErrs.length),
    identity_threshold: a.threshold,
    identity_precision: identity.precision,
    identity_recall: identity.recall,
    identity_f1: identity.f1,
    identity_sweep: identitySweep,
    selector_accuracy: selTotal ? selOk / selTotal : null,
    real_time_factor: elapsed / audioSec,
    speed_x_real_time: audioSec / elapsed,
  };
  const lines = [...rows, '', '| metric | value | goal |', '|---|---|---|'];
  lines.push(`| DER, collar 0.25 s, overlap scored | ${pct(der25)} % (missed ${pct(summary.missed_025)}, false alarm ${pct(summary.false_alarm_025)}, confusion ${pct(summary.confusion_025)}) | <= 12 % |`);
  lines.push(`| DER, collar 0, overlap scored | ${pct(der0)} % (missed ${pct(summary.missed_0)}, false alarm ${pct(summary.false_alarm_0)}, confusion ${pct(summary.confusion_0)}) | - |`);
  lines.push(`| exact speaker count | ${countOk}/${results.length} (${pct(summary.speaker_count_exact)} %) | >= 85 % |`);
  lines.push(`| talk-share error | ${summary.talk_share_error_pp.toFixed(2)} pp | <= 3 pp |`);
  lines.push(`| identity P / R / F1 (threshold ${a.threshold}) | ${identity.precision?.toFixed(3) ?? '-'} / ${identity.recall?.toFixed(3) ?? '-'} / ${identity.f1?.toFixed(3) ?? '-'} (tp ${identity.tp}, fp ${identity.fp}, fn ${identity.fn}) | F1 >= 0.85 |`);
  lines.push(`| selectors | ${selOk}/${selTotal} (${pct(summary.selector_accuracy)} %) | 100 % |`);
  lines.push(`| real-time factor | ${summary.real_time_factor.toFixed(4)} (${summary.speed_x_real_time.toFixed(0)}x real time, ${audioSec.toFixed(0)} s of audio) | - |`);
  if (failures.length) lines.push(`\nselector misses:\n${failures.map((f) => `  ${f}`).join('\n')}`);
  lines.push('', turnTakingTable(results));
  return { summary, results, report: lines.join('\n') };
}

/** Turn-taking per file and over the set (eval/turn-taking.ts): counts, and events matched in time. */
function turnTakingTable(results: FileResult[]): string {
  const sec = (x: number | null): string => (x === null ? 'not measured' : x.toFixed(1));
  const row = (name: string, t: TurnTakingScore): string =>
    `| ${name} | ${t.turns.ref} / ${t.turns.hyp} | ${t.interruptions.ref} / ${t.interruptions.hyp ?? '-'} / ${t.interruptions.matched ?? '-'} | ${t.backchannels.ref} / ${t.backchannels.hyp ?? '-'} / ${t.backchannels.matched ?? '-'} | ${t.overlapSec.ref.toFixed(1)} / ${sec(t.overlapSec.hyp)} |`;
  const all = sumTurnTaking(results.map((r) => r.turnTaking));
  // A file whose events were not measured (no transcript, or one that cannot show overlap:
  // overlapCounting) leaves the set's sum unmeasured; the measured files are summed apart.
  const measured = results.filter((r) => r.turnTaking.interruptions.hyp !== null);
  const some = measured.length > 0 && measured.length < results.length ? sumTurnTaking(measured.map((r) => r.turnTaking)) : null;
  return [
    '| turn-taking | turns ref / hyp | interruptions ref / hyp / matched | backchannels ref / hyp / matched | overlap s ref / hyp |',
    '|---|---|---|---|---|',
    ...results.map((r) => row(r.file.name, r.turnTaking)),
    row('**set**', all),
    '',
    some
      ? `on the ${measured.length} of ${results.length} files where they were measured: interruptions ${formatEvents(some.interruptions)}; backchannels ${formatEvents(some.backchannels)}`
      : `interruptions: ${formatEvents(all.interruptions)}; backchannels: ${formatEvents(all.backchannels)}`,
  ].join('\n');
}

const fileJson = (results: FileResult[]): unknown[] =>
  results.map((r) => ({ name: r.file.name, der25: r.der25.der, der0: r.der0.der, ref: r.file.num_speakers, hyp: r.analysis.speakers.length, count_evidence: r.analysis.method.countEvidence ?? null, talk_share_error_pp: meanShareError(talkShareErrors(r)), turn_taking: r.turnTaking }));

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      dataset: { type: 'string' },
      files: { type: 'string' },
      count: { type: 'string' },
      tune: { type: 'string' },
      threshold: { type: 'string' },
      json: { type: 'string' },
      quiet: { type: 'boolean' },
      transcripts: { type: 'boolean' },
      'transcript-jitter': { type: 'string' },
      'transcript-coarse': { type: 'boolean' },
      'transcript-shift': { type: 'string' },
      model: { type: 'string' },
      segmentation: { type: 'string' },
      voiceprint: { type: 'string' },
      dump: { type: 'string' },
    },
  });
  if (!values.dataset) {
    console.error('usage: npm run eval -- --dataset DIR [--files a,b] [--tune JSON] [--threshold X] [--json OUT] [--model FILE.json|FILE.onnx] [--segmentation FILE.onnx] [--voiceprint lda|cepstral|FILE.json] [--dump DIR] [--count oracle] [--transcripts [--transcript-jitter SEC] [--transcript-coarse] [--transcript-shift SEC]]');
    process.exit(2);
  }
  const dir = values.dataset;
  const only = values.files?.split(',');
  let tuning = values.tune ? (JSON.parse(values.tune) as NonNullable<AnalysisOptions['evaluation']>) : undefined;
  // --model FILE: a window speaker embedding written as JSON by a trainer (a fold's model, in the
  // speaker-disjoint validation: training/README.md) instead of the committed one.
  // FILE.onnx: a network with its description beside it, as SPEAKER_EMBEDDING_MODEL names one.
  if (values.model) {
    const embeddingModel = values.model.endsWith('.onnx') ? loadOnnxEmbedding(values.model) : parseEmbeddingModel(JSON.parse(readFileSync(values.model, 'utf8')));
    tuning = { ...tuning, diarization: { ...tuning?.diarization, embeddingModel } };
  }
  // --segmentation FILE.onnx: a fold's segmentation network (training/train-segmentation.sh), or
  // a deployment's, with its description beside it.
  // Several, comma-separated: heard as one (segmentation/ensemble.ts).
  if (values.segmentation) tuning = { ...tuning, segmentation: loadSegmentationEnsemble(values.segmentation.split(',')) };
  const args: EvalArgs = {
    dir,
    files: readManifest(dir).files.filter((f) => !only || only.includes(f.name)),
    // --voiceprint lda: voiceprints from the mean LDA embedding of each speaker's clean speech (the
    // fold's LDA with --model), measured against the shipped cepstral voiceprint (issue 38 §4).
    // --voiceprint FILE.json: a trained voiceprint (training/train-voiceprint-lda.ts; a fold's model).
    options: { ...(tuning ? { evaluation: tuning } : {}), ...(values.voiceprint ? { voiceprint: voiceprintOf(values.voiceprint, tuning) } : {}) },
    threshold: values.threshold ? Number(values.threshold) : SAME_SPEAKER_THRESHOLD,
    quiet: values.quiet ?? false,
    ...(values.count === 'oracle' ? { count: values.count } : {}),
    transcripts: values.transcripts ?? false,
    jitter: Number(values['transcript-jitter'] ?? 0),
    coarse: values['transcript-coarse'] ?? false,
    shift: Number(values['transcript-shift'] ?? 0),
    ...(values.dump ? { dump: values.dump } : {}),
  };
  const set = await evaluateSet(args);
  console.log(set.report);
  if (values.json) writeFileSync(values.json, JSON.stringify({ summary: set.summary, files: fileJson(set.results) }, null, 2));
}

/** `{ analysis, speakerPurity }` of one file: each hypothesis speaker's share of speech from its majority reference voice. */
function dumpAnalysis(out: string, dir: string, r: FileResult): void {
  mkdirSync(out, { recursive: true });
  const ref = readRttm(join(dir, r.file.rttm));
  const purity = speakerPurity(ref, hypSegments(r.analysis), r.analysis.speakers.map((s) => String(s.index)));
  writeFileSync(join(out, `${r.file.name}.json`), JSON.stringify({ analysis: r.analysis, speakerPurity: purity.map((p) => p.purity), speakerVoice: purity.map((p) => p.voice) }));
}

/** The voiceprint --voiceprint names: `lda` (the window embedding's), `cepstral` (shipped until issue 38 §4) or a trained model's JSON file. */
function voiceprintOf(name: string, tuning: AnalysisOptions['evaluation']): VoiceprintExtractor {
  if (name === 'lda') return new EmbeddingVoiceprint(ldaOf(tuning));
  if (name === 'cepstral') return new CepstralVoiceprint();
  return new TrainedVoiceprint(JSON.parse(readFileSync(name, 'utf8')) as VoiceprintModel);
}

/** The LDA an evaluation's voiceprints use: the fold's (--model FILE.json), else the shipped one. */
function ldaOf(tuning: AnalysisOptions['evaluation']): LdaEmbeddingModel {
  const m = tuning?.diarization?.embeddingModel;
  return m && (m.kind === undefined || m.kind === 'lda') ? m : SPEAKER_LDA;
}

if (import.meta.main) await main();
