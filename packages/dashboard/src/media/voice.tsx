// Each speaker's voice and pace, as the API measured them (GET /v1/files/:id/metrics, units of
// docs/analysis.md): speaking and articulation rate, words per minute where a transcript gives
// words, median pitch in hertz (the API gives semitones above 27.5 Hz) and its range, pauses and
// loudness; a chart of pace and one of pitch, then the table. "Not measured" stays visible.
import type { JSX } from 'preact';
import type { MediaMetrics } from '@rapport/client';
import { speakerColour } from '../ui.tsx';

/** Hertz of a pitch in semitones above 27.5 Hz (A0). */
export function hz(semitones: number): number {
  return 27.5 * 2 ** (semitones / 12);
}

const fx = (v: number | null | undefined, digits: number, unit: string): string => (v === null || v === undefined || !Number.isFinite(v) ? 'not measured' : `${v.toFixed(digits)}${unit}`);

function Bars({ title, rows, unit }: { title: string; rows: { label: string; value: number | null; colour: string }[]; unit: string }): JSX.Element {
  const max = Math.max(1e-9, ...rows.map((r) => r.value ?? 0));
  const text = (v: number | null) => (v === null ? 'not measured' : `${v.toFixed(unit === ' Hz' ? 0 : 1)}${unit}`);
  return (
    <figure class="voice-chart">
      <figcaption>{title}</figcaption>
      <svg class="bars" viewBox={`0 0 400 ${rows.length * 24 + 4}`} role="img" aria-label={`${title}: ${rows.map((r) => `${r.label} ${text(r.value)}`).join(', ')}`}>
        {rows.map((r, i) => (
          <g key={r.label}>
            <text x={114} y={i * 24 + 16} text-anchor="end" class="axis">{r.label.length > 16 ? `${r.label.slice(0, 15)}…` : r.label}</text>
            {r.value !== null ? <rect x={120} y={i * 24 + 4} width={Math.max(1, (r.value / max) * 200)} height={16} fill={r.colour} /> : null}
            <text x={126 + (r.value !== null ? (r.value / max) * 200 : 0)} y={i * 24 + 16} class="axis">{text(r.value)}</text>
          </g>
        ))}
      </svg>
    </figure>
  );
}

export function VoiceAndPace({ metrics, name }: { metrics: MediaMetrics; name: (speaker: number) => string }): JSX.Element {
  const rows = metrics.speakers;
  return (
    <>
      <div class="voice-charts">
        <Bars title="Pace: syllables per second" unit=" syl/s" rows={rows.map((s) => ({ label: name(s.index), value: s.metrics.speakingRateSylPerSec ?? null, colour: speakerColour(s.index) }))} />
        <Bars title="Median pitch" unit=" Hz" rows={rows.map((s) => ({ label: name(s.index), value: s.metrics.pitchMedianSt === null || s.metrics.pitchMedianSt === undefined ? null : hz(s.metrics.pitchMedianSt), colour: speakerColour(s.index) }))} />
      </div>
      <div class="table-wrap" tabIndex={0} role="region" aria-label="Voice and pace table, scrolls sideways on small screens">
        <table class="voice">
          <caption class="visually-hidden">Voice and pace of each speaker, as measured by the analysis</caption>
          <thead><tr>
            <th scope="col">Speaker</th><th scope="col">Speaking rate</th><th scope="col">Articulation rate</th><th scope="col">Words per minute</th>
            <th scope="col">Median pitch</th><th scope="col">Pitch range</th><th scope="col">Pauses</th><th scope="col">Median pause</th><th scope="col">Loudness</th>
          </tr></thead>
          <tbody>
            {rows.map((s) => {
              const m = s.metrics;
              return (
                <tr key={s.index} data-speaker={s.index}>
                  <th scope="row"><span class="swatch" style={{ background: speakerColour(s.index) }} aria-hidden="true" />{name(s.index)}</th>
                  <td>{fx(m.speakingRateSylPerSec, 1, ' syl/s')}</td>
                  <td>{fx(m.articulationRateSylPerSec, 1, ' syl/s')}</td>
                  <td>{m.language ? fx(m.language.wordsPerMinute, 0, '') : 'no transcript'}</td>
                  <td class="pitch">{m.pitchMedianSt === null || m.pitchMedianSt === undefined ? 'not measured' : `${hz(m.pitchMedianSt).toFixed(0)} Hz`}</td>
                  <td>{fx(m.pitchRangeSt, 1, ' semitones')}</td>
                  <td>{fx(m.pausesPerMin, 1, ' a minute')}</td>
                  <td>{fx(m.medianPauseSec, 2, ' s')}</td>
                  <td>{fx(m.loudnessMeanDb, 1, ' dBFS')}</td>
                </tr>
              );
            })}
          </tbody>
        </table>
      </div>
    </>
  );
}
