// Calibration of the cepstral voiceprint, produced by `node eval/calibrate-voiceprint.ts
// --dataset DIR` on the dev set (docs/analysis-speech.md): the mean and standard deviation of
// each raw statistic over all 25 speaker appearances, and the cosine threshold in the
// middle of the range that maximised cross-recording identity F1 (0.918: P 1.000, R 0.848).
// Regenerate with that script; do not edit by hand.
export const VOICEPRINT_CENTER: number[] = [4.9293,2.5435,1.068,0.3227,0.364,0.1674,0.3073,-0.3462,0.0385,-0.5585,-0.2051,0.0367,24.2839,31.4848,37.2344];
export const VOICEPRINT_SCALE: number[] = [1.284,0.8995,0.6817,0.6635,0.2801,0.3658,0.3884,0.2356,0.1937,0.2561,0.204,0.0583,4.8409,5.169,6.1827];
export const DEV_SET_F1_THRESHOLD = 0.71;
