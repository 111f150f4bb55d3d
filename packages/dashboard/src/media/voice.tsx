// Each speaker's voice and pace, as the API measured them (GET /v1/files/:id/metrics, units of
// docs/analysis.md): speaking and articulation rate, words per minute where a transcript gives
// words, median pitch in hertz (the API gives semitones above 27.5 Hz) and its range, pauses and
// loudness; a chart of pace and one of pitch, then the table, whose names, units and decimals
// are the engine's one list (figures/measures.tsx). "Not measured" stays visible.
import type { JSX } from 'preact';
import type { MediaMetrics } from '@rapport/client';
import { semitonesToHz } from '@rapport/analysis/render';
import { ScrollRegion, speakerColour } from '../ui.tsx';
import { MeasureCell, MeasureHeader, VOICE_TABLE } from '../figures/measures.tsx';
import { BarChart } from '../figures/bars.tsx';

/** Hertz of a pitch in semitones above 27.5 Hz (A0): the engine's conversion, not a second one. */
export const hz = semitonesToHz;

/** What each unit means, shown under the table and as the headers' tooltips (and on a person's page). */
export const UNITS = {
  speaking: 'syllables per second over the speaker\'s talking time, pauses included: how fast they get through what they say (conversation: about 3 to 6)',
  articulation: 'syllables per second with the pauses inside turns left out: how fast they speak while speaking',
  pitch: 'hertz: the median pitch of the voice (typically about 85 to 180 Hz for lower voices, 165 to 255 Hz for higher ones)',
  range: 'semitones between the 5th and 95th percentile of the voice\'s pitch (12 semitones make an octave): how much the voice moves',
  loudness: 'decibels below the loudest level the recording can hold (0 dBFS); speech is usually about −35 to −15 dBFS, depending on the microphone',
} as const;

/** A chart of one figure per speaker, drawn one unit a pixel across its box (figures/bars.tsx): 12 px text on a phone too. */
function Bars({ title, rows, unit }: { title: string; rows: { label: string; value: number | null; colour: string }[]; unit: string }): JSX.Element {
  const max = Math.max(1e-9, ...rows.map((r) => r.value ?? 0));
  const text = (v: number | null) => (v === null ? 'not measured' : `${v.toFixed(unit === ' Hz' ? 0 : 1)}${unit}`);
  return (
    <figure class="voice-chart">
      <figcaption>{title}</figcaption>
      <BarChart label={`${title}: ${rows.map((r) => `${r.label} ${text(r.value)}`).join(', ')}`}
        rows={rows.map((r) => ({ label: r.label, fraction: r.value === null ? null : r.value / max, text: text(r.value), colour: r.colour }))} />
    </figure>
  );
}

export function VoiceAndPace({ metrics, name }: { metrics: MediaMetrics; name: (speaker: number) => string }): JSX.Element {
  const rows = metrics.speakers;
  // Why the voice's figures are missing, when the API says (a transcript on its own: "no audio").
  const why = metrics.notMeasured?.reason;
  return (
    <>
      {why ? <p class="hint not-measured" role="note">Pitch, loudness and pace from syllables: not measured ({why}).</p> : null}
      <div class="voice-charts">
        <Bars title="Pace: syllables per second" unit=" syl/s" rows={rows.map((s) => ({ label: name(s.index), value: s.metrics.speakingRateSylPerSec ?? null, colour: speakerColour(s.index) }))} />
        <Bars title="Median pitch" unit=" Hz" rows={rows.map((s) => ({ label: name(s.index), value: s.metrics.pitchMedianSt === null || s.metrics.pitchMedianSt === undefined ? null : hz(s.metrics.pitchMedianSt), colour: speakerColour(s.index) }))} />
      </div>
      <ScrollRegion label="Voice and pace table">
        <table class="voice">
          <caption class="visually-hidden">Voice and pace of each speaker, as measured by the analysis</caption>
          <thead><tr>
            <th scope="col">Speaker</th>
            {VOICE_TABLE.map((m) => <MeasureHeader key={m.key} m={m} />)}
          </tr></thead>
          <tbody>
            {rows.map((s) => (
              <tr key={s.index} data-speaker={s.index}>
                <th scope="row"><span class="swatch" style={{ background: speakerColour(s.index) }} aria-hidden="true" />{name(s.index)}</th>
                {VOICE_TABLE.map((m) => (m.key === 'wordsPerMinute' && !s.metrics.language
                  ? <td key={m.key} data-measure={m.key}>no transcript</td>
                  : <MeasureCell key={m.key} m={m} metrics={s.metrics} />))}
              </tr>
            ))}
          </tbody>
        </table>
      </ScrollRegion>
      <dl class="legend" aria-label="Units">
        <div><dt>syllables/s</dt><dd>{UNITS.speaking}</dd></div>
        <div><dt>Hz</dt><dd>{UNITS.pitch}</dd></div>
        <div><dt>semitones</dt><dd>{UNITS.range}</dd></div>
        <div><dt>dBFS</dt><dd>{UNITS.loudness}</dd></div>
      </dl>
    </>
  );
}
