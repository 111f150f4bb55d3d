// Calibration of the cepstral voiceprint, produced by `node eval/calibrate-voiceprint.ts
// --dataset DIR` on the dev set (docs/analysis-speech.md): the mean and standard deviation of
// each raw statistic over all 25 speaker appearances, and the cosine threshold that
// maximised cross-recording identity F1 (0.625: P 1.000, R 0.455).
// Regenerate with that script; do not edit by hand.
export const VOICEPRINT_CENTER: number[] = [17.5477,-3.7117,4.8105,-0.9146,-3.2793,0.8407,-2.7699,-0.8277,-0.4876,-1.953,-0.0407,-1.0042,-0.6545,-0.0332,-1.3968,-0.2839,-0.6564,-0.9737,-0.14,24.5071,31.5324,37.3623];
export const VOICEPRINT_SCALE: number[] = [4.1376,4.0825,1.9161,1.0625,1.5963,0.9199,1.2314,1.2161,0.2978,0.9052,0.7889,0.4747,0.5346,0.6883,0.451,0.4583,0.3952,0.2796,0.3722,5.0555,5.0612,6.0122];
export const SAME_SPEAKER_THRESHOLD = 0.84;
