// Calibration of the cepstral voiceprint, produced by `node eval/calibrate-voiceprint.ts
// --dataset DIR` on the dev set (docs/analysis-speech.md): the mean and standard deviation of
// each raw statistic over all 26 speaker appearances, and the cosine threshold that
// maximised cross-recording identity F1 (0.533: P 1.000, R 0.364).
// Regenerate with that script; do not edit by hand.
export const VOICEPRINT_CENTER: number[] = [17.2715,-3.7964,4.6118,-1.0403,-3.418,0.7678,-2.7238,-0.9235,-0.4666,-1.8733,-0.1042,-0.9559,-0.636,-0.0282,-1.3444,-0.2916,-0.6162,-0.946,-0.1533,23.9287,31.544,37.6264];
export const VOICEPRINT_SCALE: number[] = [4.2698,4.3599,1.9115,1.1455,1.8733,0.9905,1.3046,1.3041,0.3517,0.9424,0.8315,0.4703,0.5148,0.6577,0.4453,0.4697,0.4134,0.2992,0.3709,4.8992,5.093,6.1227];
export const SAME_SPEAKER_THRESHOLD = 0.87;
