// Calibration of the cepstral voiceprint, produced by `node eval/calibrate-voiceprint.ts
// --dataset DIR` on the dev set (docs/analysis-speech.md): the mean and standard deviation of
// each raw statistic over all 28 speaker appearances, and the cosine threshold that
// maximised cross-recording identity F1 (0.583: P 0.933, R 0.424).
// Regenerate with that script; do not edit by hand.
export const VOICEPRINT_CENTER: number[] = [17.5781,-3.772,4.8985,-0.877,-3.2365,0.8472,-2.7286,-0.7317,-0.4671,-1.9076,0.0033,-1.0369,-0.6322,0.0086,-1.4099,-0.2715,-0.6512,-0.9589,-0.123,24.3182,31.2204,36.92];
export const VOICEPRINT_SCALE: number[] = [4.2065,4.1372,1.8515,1.0336,1.5766,0.9611,1.1889,1.2549,0.3316,0.917,0.8628,0.4771,0.5454,0.736,0.4197,0.4748,0.3917,0.2846,0.3939,5.1853,5.3465,6.3517];
export const SAME_SPEAKER_THRESHOLD = 0.86;
