// The speech half's entry points: media (or samples) in, MediaAnalysis out. Decoding and frame
// analysis stream together, so only the compact per-frame features of a recording are held.
import type { CountEvidence, MediaAnalysis, SpeakerAnalysis, SpeakerCountHint, SpeechSegment, Transcript } from './types.ts';
import { ENGINE_VERSION, EngineError } from './types.ts';
import { decodeAudio } from './audio/decode.ts';
import { readWavFormat, looksLikeWav } from './audio/wav.ts';
import { resample } from './audio/resample.ts';
import { SAMPLE_RATE } from './speech/features.ts';
import { FrontEnd, type FrontEndOutput } from './speech/front-end.ts';
import { combinedSpeechProbability, regionsToMask, SPEECH_PROBABILITY_DEFAULTS, speechFromProbabilities, speechThresholds, type SpeechProbabilityOptions } from './speech/vad.ts';
import { heardShare } from './speech/segmentation/local-segmentation.ts';
import { frameProbabilities, sileroModel } from './speech/silero-vad.ts';
import type { SegmentationModel } from './speech/segmentation/model.ts';
import { builtInSegmentation } from './speech/segmentation/built-in.ts';
import { restoreTurnGaps, silenceEdges, type TurnGapOptions } from './speech/turn-gaps.ts';
import { diarize } from './speech/diarization/diarize.ts';
import type { OnnxEmbeddingModel } from './speech/diarization/onnx-embedding.ts';
import { DIARIZATION_SETTINGS, resolveSettings, type DiarizationOverrides } from './speech/diarization/settings.ts';
import { firstSpeechOrder } from './speech/diarization/numbering.ts';
import { syllableNuclei } from './speech/syllables.ts';
import { acousticStats, buildTurns, frameTrackToSegments, unionPerSpeaker } from './speech/turns.ts';
import type { VoiceprintExtractor } from './speech/voiceprint.ts';
import { TrainedVoiceprint } from './speech/trained-voiceprint.ts';
import { VOICEPRINT_LDA } from './speech/voiceprint-lda.model.ts';
import { computeSpeakerMetrics } from './behavior/speaker-metrics.ts';
import { alignTranscript } from './language/align.ts';
import { CUE_LED_MIN_AGREEMENT, cueLedTrack, transcriptGuide, withGuideOverlaps } from './language/transcript-guide.ts';
import { cueEdgeError, cueTiming, overlapCounting, shiftTranscript } from './language/cue-timing.ts';
import { speakerCountWarnings } from './speaker-count-warnings.ts';
import { openSync, readSync, closeSync } from 'node:fs';
import { GUIDED_METHOD_PREFIX } from './method-names.ts';

/** The shipped voiceprint (see where it is used). */
const DEFAULT_VOICEPRINT = new TrainedVoiceprint(VOICEPRINT_LDA);

export type AnalysisStage = 'detecting_speech' | 'identifying_speakers' | 'measuring_behavior';

export interface AnalysisOptions {
  transcript?: Transcript | null;
  onProgress?: (stage: AnalysisStage, fraction: number) => void;
  signal?: AbortSignal;
  /** The user's knowledge of the speaker count; the diarization stays within it. */
  speakers?: SpeakerCountHint;
  /** Throw EngineError('no_speech_detected') instead of returning zero speakers. */
  requireSpeech?: boolean;
  /**
   * Evaluation only (eval/): other settings for the stages and switches that turn steps off, to
   * measure them. The service never sets it; the defaults are the calibrated values.
   */
  evaluation?: {
    vad?: SpeechProbabilityOptions;
    diarization?: DiarizationOverrides;
    /** A fold's segmentation network. */
    segmentation?: SegmentationModel;
    transcriptGuide?: boolean;
    cueLed?: boolean;
    turnGaps?: TurnGapOptions | false;
  };
  voiceprint?: VoiceprintExtractor;
  /**
   * The deployment's speaker embedding network (loadOnnxEmbedding), used by the diarization
   * instead of the built-in window embedding; its name goes into method.diarization.
   */
  speakerEmbedding?: OnnxEmbeddingModel;
  /** The deployment's speaker segmentation network (SEGMENTATION_MODEL) instead of the built-in one. */
  segmentationModel?: SegmentationModel;
}

export interface AnalyzeMediaInput extends AnalysisOptions {
  path: string;
  /** Media that decodes to more than this is refused as media_unreadable (default 4 h). */
  maxDurationSec?: number;
}

/** The detector as method.vad names it: the model file, its package version and checksum. */
function vadName(): string {
  return `${sileroModel().name}; steady tones rejected`;
}
/**
 * The method from the audio alone, naming the segmentation network (the built-in one or the
 * deployment's, with its checksum) and the embedding the local speakers were clustered by.
 */
function diarizationName(segmentation: SegmentationModel, embedding: OnnxEmbeddingModel | undefined): string {
  const emb = embedding ? `${embedding.name}, the deployment's network` : 'the window-statistics LDA (speaker-lda.model.ts)';
  return `speaker segmentation by ${segmentation.name} in 8 s windows every 2 s (up to three local speakers, at most two at once), each local speaker's clean speech embedded by ${emb}, average-linkage clustering of the local speakers with cannot-link within a window, a reconstruction that gives overlapped frames to both speakers, and the frames within ${DIARIZATION_SETTINGS.boundaries.reachSec} s of each change given to the speaker whose GMM-UBM voice model (trained on its clean speech) explains them best; overlap, interruptions and backchannels measured from the audio`;
}

const GUIDED_DIARIZATION_NAME = `${GUIDED_METHOD_PREFIX}: one GMM-UBM speaker model per transcript name, trained on its cues, and a Viterbi resegmentation of all speech`;

/**
 * The guided method as it ran: the transcript's offset, whether the cues' boundaries were kept,
 * and whether their overlaps could be counted (overlapCounting's statement).
 */
function guidedMethod(offsetSec: number, cueLed: boolean, overlaps: string): string {
  const moved = offsetSec !== 0 ? `; the transcript's times moved by ${offsetSec.toFixed(2)} s to fit the speech` : '';
  return `${GUIDED_DIARIZATION_NAME}${cueLed ? ", then the cues' own boundaries where one name speaks" : ''}${moved}; ${overlaps}`;
}


function throwIfAborted(signal?: AbortSignal): void {
  if (signal?.aborted) throw signal.reason instanceof Error ? signal.reason : new Error('analysis aborted');
}

/** Expected 16 kHz sample count when it can be known cheaply (WAV header), for progress. */
function expectedSamples(path: string): number | null {
  try {
    const fd = openSync(path, 'r');
    const head = Buffer.alloc(12);
    readSync(fd, head, 0, 12, 0);
    closeSync(fd);
    if (!looksLikeWav(head)) return null;
    const fmt = readWavFormat(path);
    const frames = fmt.dataBytes / ((fmt.bitsPerSample / 8) * fmt.channels);
    return (frames * SAMPLE_RATE) / fmt.sampleRate;
  } catch {
    return null; // decodeAudio reports unreadable media with the proper error
  }
}

export async function analyzeMedia(input: AnalyzeMediaInput): Promise<MediaAnalysis> {
  const started = performance.now();
  const expected = expectedSamples(input.path);
  const front = frontEnd(input, expected ?? undefined);
  let lastReport = 0;
  for await (const chunk of decodeAudio(input.path, { signal: input.signal, maxDurationSec: input.maxDurationSec })) {
    throwIfAborted(input.signal);
    front.push(chunk);
    if (input.onProgress && front.samplesSeen - lastReport >= SAMPLE_RATE * 60) {
      lastReport = front.samplesSeen;
      input.onProgress('detecting_speech', expected ? Math.min(0.99, front.samplesSeen / expected) : 0);
    }
  }
  const durationSec = front.samplesSeen / SAMPLE_RATE;
  return analyzeFeatures(front.finish(), durationSec, started, input);
}

/** The same analysis from samples already in memory (tests, benches). */
export function analyzeSamples(samples: Float32Array, sampleRate: number, options: AnalysisOptions = {}): MediaAnalysis {
  const started = performance.now();
  const x = sampleRate === SAMPLE_RATE ? samples : resample(samples, sampleRate, SAMPLE_RATE);
  const front = frontEnd(options, x.length);
  const step = SAMPLE_RATE * 30;
  for (let i = 0; i < x.length; i += step) {
    throwIfAborted(options.signal);
    front.push(x.subarray(i, Math.min(x.length, i + step)));
  }
  return analyzeFeatures(front.finish(), x.length / SAMPLE_RATE, started, options);
}

/** The segmentation network: an evaluation's, the deployment's, or the built-in one. */
function segmentationOf(options: AnalysisOptions): SegmentationModel {
  return options.evaluation?.segmentation ?? options.segmentationModel ?? builtInSegmentation();
}

/** What is computed while decoding: the fbank of the embedding network (the deployment's, or an evaluation's) when it reads one, and the segmentation network's input. */
function frontEnd(options: AnalysisOptions, expectedSamples: number | undefined): FrontEnd {
  const evaluated = options.evaluation?.diarization?.embeddingModel;
  const embeddingFbank = options.speakerEmbedding?.fbank ?? (evaluated?.kind === 'onnx' ? evaluated.fbank : null);
  const segmentation = { model: segmentationOf(options), hopSec: resolveSettings(options.evaluation?.diarization?.settings).segmentation.hopSec };
  return new FrontEnd({ embeddingFbank, segmentation }, expectedSamples);
}

function analyzeFeatures(front: FrontEndOutput, durationSec: number, started: number, options: AnalysisOptions): MediaAnalysis {
  const { features: f, speechWindows } = front;
  const progress = options.onProgress ?? ((): void => undefined);
  progress('detecting_speech', 1);
  throwIfAborted(options.signal);
  const thresholds = speechThresholds(f);
  const vad = { ...SPEECH_PROBABILITY_DEFAULTS, ...options.evaluation?.vad };
  const heard = front.segmentation ? heardShare(front.segmentation, segmentationOf(options).spec.windowSec, f.frames) : null;
  const regions = speechFromProbabilities(combinedSpeechProbability(frameProbabilities(speechWindows, f.frames), heard, vad.segmentationWeight), f, vad);
  const mask = regionsToMask(regions, f.frames);
  if (regions.length === 0 && options.requireSpeech) throw new EngineError('no_speech_detected', 'no speech was detected in the media');

  progress('identifying_speakers', 0);
  // A transcript offset from the media as a whole is moved onto the speech before it guides or
  // labels anything (cue-timing.ts); the analysis keeps the moved cues.
  const timing = options.transcript ? cueTiming(options.transcript, mask) : null;
  const transcript = options.transcript && timing ? shiftTranscript(options.transcript, timing.offsetSec) : null;
  const guide = transcript && options.evaluation?.transcriptGuide !== false ? transcriptGuide(transcript, mask) : null;
  const hint = options.speakers;
  const countBounds = hint ? (hint.exact ? { min: hint.exact, max: hint.exact } : { min: hint.min ?? 1, max: hint.max ?? Infinity }) : undefined;
  const embedding = options.speakerEmbedding ? { embedding: options.speakerEmbedding } : {};
  const diarization = diarize(f, regions, mask, front.segmentation!, segmentationOf(options).spec.windowSec, { speakers: countBounds, guide: guide?.track ?? null, ...embedding }, options.evaluation?.diarization);
  const { speakers, guided } = diarization;
  const segmented = guided ? null : diarization;
  // Overlap heard by the segmentation: runs of the second track.
  const audioOverlaps = segmented ? runsOf(segmented.overlapSpeaker) : [];
  const turnGaps = options.evaluation?.turnGaps;
  let frameSpeaker = turnGaps === false ? diarization.frameSpeaker : restoreTurnGaps(diarization.frameSpeaker, f, thresholds.stay, turnGaps, guided ? guide?.overlaps : audioOverlaps);
  let track = frameTrackToSegments(frameSpeaker);
  let labels = transcript ? alignTranscript(track, transcript).labels : Array.from({ length: speakers }, () => null);
  // Cues that fit the speech say where each utterance starts and ends better than the models do.
  const cueLed = guided && guide && timing && timing.agreement >= CUE_LED_MIN_AGREEMENT && options.evaluation?.cueLed !== false ? cueLedTrack(frameSpeaker, guide, labels, mask) : null;
  // Voiceprints keep the frames the voice models chose: the cues' edges hold breaths and the
  // other voice's onsets, and the same-speaker threshold is calibrated on the models' tracks
  // (on the dev set, identity F1 with exact cues is 1.000 this way, 0.969 from the cue-led track).
  let voiceTrack = frameSpeaker;
  if (cueLed) {
    ({ frameSpeaker, labels, voiceTrack } = cueLed);
    track = frameTrackToSegments(frameSpeaker);
  }
  throwIfAborted(options.signal);
  progress('identifying_speakers', 1);

  progress('measuring_behavior', 0);
  // Overlapped speech, where the evidence allows: a guiding transcript's overlapping cues. They are
  // counted (interruptions, backchannels, overlapped time) only when the cue edges sit where speech
  // starts and stops (loose edges make as many false interruptions as true ones) and some cues
  // overlap at all (overlapCounting). Loose or not, they still give both speakers their speech
  // (diarization error and talk share are lower with them than without).
  let segments = guided && guide ? withGuideOverlaps(track, guide, labels, frameSpeaker) : segmented ? withAudioOverlaps(track, segmented.overlapSpeaker) : track;
  // The last stage: speakers numbered in the order they first speak in the segments the user
  // reads (the diarization numbered its own track; gap restoring and cue boundaries can move a
  // first word), so that speaker_index 0 is always the first voice heard.
  const order = firstSpeechOrder(segments, speakers);
  // How cleanly each speaker's voice separates from the others' (issue 40 §1: a figure's confidence reads it).
  let separation = segmented?.separation;
  if (order.some((to, from) => to !== from)) {
    const remap = (t: Int16Array): Int16Array => t.map((x) => (x >= 0 ? order[x]! : x));
    segments = segments.map((g) => ({ ...g, speaker: order[g.speaker]! }));
    voiceTrack = remap(voiceTrack);
    frameSpeaker = remap(frameSpeaker);
    const permuted: (string | null)[] = new Array<string | null>(speakers).fill(null);
    labels.forEach((l, from) => (permuted[order[from]!] = l));
    labels = permuted;
    const separated: (number | null)[] = new Array<number | null>(speakers).fill(null);
    separation?.forEach((v, from) => (separated[order[from]!] = v));
    if (separation) separation = separated;
  }
  // From the audio, a speaker left with no speech of its own (a cluster a large minimum asked for,
  // whose frames the reconstruction gave to others) is no speaker: numbered last, it is cut off
  // here, and a hint it was meant to meet says it was not met. A transcript's names all stay.
  const speakerCount = guided ? speakers : segments.reduce((n, g) => Math.max(n, g.speaker + 1), 0);
  labels = labels.slice(0, speakerCount);
  const counting = guided && guide && transcript ? overlapCounting(guide.overlaps.length, cueEdgeError(transcript, silenceEdges(f.bandDb, thresholds.stay))) : null;
  // From the audio alone, overlap is what the segmentation network hears (measured: docs/analysis-speech.md).
  const overlapsTimed = segmented ? true : (counting?.counted ?? false);
  const nuclei = syllableNuclei(f, mask);
  const turns = buildTurns(segments, f, frameSpeaker, nuclei);
  const acoustic = acousticStats(speakerCount, f, frameSpeaker, nuclei);
  const metrics = computeSpeakerMetrics({ durationSec, segments, turns, acoustic, transcript, labels, overlapMeasured: overlapsTimed });
  // The trained voiceprint (trained-voiceprint.ts): at the conservative threshold it links twice
  // the voices the cepstral one did on the speaker-disjoint folds, none wrongly (issue 38 §4,
  // docs/speech-validation.md). The cepstral voiceprint and the mean LDA embedding are measured
  // alternatives (eval --voiceprint).
  const extractor = options.voiceprint ?? DEFAULT_VOICEPRINT;
  // A voiceprint is of one voice: frames where the segmentation hears two are left out.
  if (segmented) voiceTrack = voiceTrack.map((x, i) => (segmented.overlapSpeaker[i]! >= 0 ? -1 : x));
  const speakerList: SpeakerAnalysis[] = Array.from({ length: speakerCount }, (_, s) => {
    const own = segments.filter((g) => g.speaker === s);
    return {
      index: s,
      speechSec: Math.round(own.reduce((a, g) => a + g.end - g.start, 0) * 1000) / 1000,
      firstSpeechSec: own[0]?.start ?? 0,
      label: labels[s] ?? null,
      voiceprint: extractor.extract(f, voiceTrack, s),
      metrics: metrics[s]!,
      ...separationOf(segmented !== null, speakerCount, separation?.[s]),
    };
  });
  progress('measuring_behavior', 1);
  const elapsedSec = (performance.now() - started) / 1000;
  const warnings = speakerCountWarnings(hint, speakerCount, diarization.countEvidence);
  return {
    version: 1,
    engineVersion: ENGINE_VERSION,
    ...(warnings.length ? { warnings } : {}),
    durationSec: Math.round(durationSec * 1000) / 1000,
    segments,
    speakers: speakerList,
    turns,
    transcript,
    method: {
      vad: vadName(),
      diarization: guided && counting ? guidedMethod(timing?.offsetSec ?? 0, cueLed !== null, counting.statement) : diarizationName(segmentationOf(options), options.speakerEmbedding),
      voiceprint: extractor.name,
      realTimeFactor: durationSec > 0 ? Math.round((elapsedSec / durationSec) * 1e5) / 1e5 : null,
      overlapMeasured: overlapsTimed,
      ...(diarization.countEvidence ? { countEvidence: roundEvidence(diarization.countEvidence) } : {}),
    },
  };
}

/** Runs of frames where a track has a speaker. */
function runsOf(track: Int16Array): { start: number; end: number }[] {
  const out: { start: number; end: number }[] = [];
  for (let i = 0; i < track.length; i++) {
    if (track[i]! < 0) continue;
    const last = out[out.length - 1];
    if (last && last.end === i) last.end = i + 1;
    else out.push({ start: i, end: i + 1 });
  }
  return out;
}

/** The segments with the second speaker of overlapped frames added. */
function withAudioOverlaps(segments: SpeechSegment[], overlapSpeaker: Int16Array): SpeechSegment[] {
  const extra = frameTrackToSegments(overlapSpeaker);
  return extra.length === 0 ? segments : unionPerSpeaker([...segments, ...extra]);
}

function roundEvidence(e: CountEvidence): CountEvidence {
  const r = (x: number | null): number | null => (x === null ? null : Math.round(x * 1000) / 1000);
  return { nearestPair: r(e.nearestPair), widestSplit: r(e.widestSplit) };
}

/** A speaker's separation as the result states it: 1 when the audio held one speaker, absent for a transcript's speakers or where none was measured. */
function separationOf(fromAudio: boolean, speakerCount: number, measured: number | null | undefined): { separation?: number } {
  if (!fromAudio) return {};
  if (speakerCount === 1) return { separation: 1 };
  return typeof measured === 'number' ? { separation: measured } : {};
}
