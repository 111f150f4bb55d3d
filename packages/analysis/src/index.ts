// Public surface of the analysis engine. Each stage adds its exports here.
export * from './types.ts';
// Behavior, language, matching and documents.
export { computeSpeakerMetrics, aggregateMetrics, floorTransfers, interruptions } from './behavior/speaker-metrics.ts';
export type { SpeakerMetricsInput, FloorTransfer } from './behavior/speaker-metrics.ts';
export { computePairInteraction } from './behavior/pair-metrics.ts';
export type { PairConversation, PairInteraction } from './behavior/pair-metrics.ts';
export { computeEntrainment, ENTRAINMENT_FEATURES, ENTRAINMENT_MEASURES } from './behavior/entrainment.ts';
export type { EntrainmentCell, EntrainmentResult, SharedConversation } from './behavior/entrainment.ts';
export { parseTranscript } from './language/transcripts.ts';
export { alignTranscript } from './language/align.ts';
export { computeLanguageMetrics, tokenize } from './language/text-metrics.ts';
export { languageStyleMatching, lsmOf } from './language/lsm.ts';
export type { LsmResult } from './language/lsm.ts';
export { FUNCTION_WORD_CATEGORY_KEYS, FUNCTION_WORD_CATEGORY_NAMES } from './language/lexicon.ts';
export { resolveSelector, dominantSpeaker } from './matching/selectors.ts';
export type { Selector, SelectorStrategy, SelectorContext, SelectorResult } from './matching/selectors.ts';
export { resolveMagicHint } from './matching/magic-hint.ts';
export type { HintResult } from './matching/magic-hint.ts';
export { scorePair, SCORING } from './matching/scoring.ts';
export type { ComponentKey, ComponentScore, PairScore, ScorePairInput } from './matching/scoring.ts';
export { buildMatching } from './documents/matching.ts';
export type { BuildMatchingInput, BuiltDocument } from './documents/matching.ts';
export { buildReport } from './documents/report.ts';
export type { BuildReportInput } from './documents/report.ts';
export { renderMarkdown, renderHtml, RESULT_HTML_CSP, documentFigures, figureFor, figureText, figureSvg } from './documents/render.ts';
export type { HtmlOptions, Figure, FigureBar, FigureGroup } from './documents/render.ts';
export { validateResultDocument, resultDocumentJsonSchema } from './documents/schema.ts';
export { ICONS, ICON_NAMES } from './documents/icons.ts';
export type * from './documents/types.ts';
// Speech: decoding, speech detection, speakers and voiceprints.
export { analyzeMedia, analyzeSamples } from './analyze.ts';
export { upgradeCachedAnalysis } from './cached-analysis.ts';
export { pcm16WavHeader } from './audio/wav.ts';
export type { AnalysisStage, AnalysisOptions, AnalyzeMediaInput } from './analyze.ts';
export { linkSpeakers, voiceprintSimilarity, SAME_SPEAKER_THRESHOLD } from './speech/voiceprint.ts';
export { CepstralVoiceprint } from './speech/voiceprint.ts';
export type { VoiceprintExtractor } from './speech/voiceprint.ts';
export { decodeAudio, decodeAudioToArray, ANALYSIS_RATE } from './audio/decode.ts';
