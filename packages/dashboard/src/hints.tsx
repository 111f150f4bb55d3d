// The speaker-count hints of an upload or a re-analysis (docs/api.md, "Speaker-count hints"):
// let the engine decide, exactly N, or a range. The API validates them; its errors are shown.
import type { JSX } from 'preact';
import { useState } from 'preact/hooks';
import type { SpeakerHints } from '@rapport/client';

/** The hints as a person reads them: "exactly 2 speakers", "2 to 4 speakers", "at least 2 speakers". */
export function hintsText(h: SpeakerHints): string {
  if (h.numSpeakers !== undefined) return `exactly ${h.numSpeakers} ${h.numSpeakers === 1 ? 'speaker' : 'speakers'}`;
  if (h.minSpeakers !== undefined && h.maxSpeakers !== undefined) return `${h.minSpeakers} to ${h.maxSpeakers} speakers`;
  if (h.minSpeakers !== undefined) return `at least ${h.minSpeakers} ${h.minSpeakers === 1 ? 'speaker' : 'speakers'}`;
  if (h.maxSpeakers !== undefined) return `at most ${h.maxSpeakers} ${h.maxSpeakers === 1 ? 'speaker' : 'speakers'}`;
  return 'no speaker count';
}

export function HintsFields({ idPrefix, value, onChange }: { idPrefix: string; value: SpeakerHints; onChange: (h: SpeakerHints) => void }): JSX.Element {
  const [mode, setMode] = useState<'auto' | 'exact' | 'range'>(value.numSpeakers !== undefined ? 'exact' : value.minSpeakers !== undefined || value.maxSpeakers !== undefined ? 'range' : 'auto');
  const num = (s: string): number | undefined => (s.trim() === '' ? undefined : Number(s));
  const pick = (m: typeof mode): void => {
    setMode(m);
    onChange(m === 'exact' ? { numSpeakers: 2 } : m === 'range' ? { minSpeakers: 1, maxSpeakers: 4 } : {});
  };
  return (
    <fieldset class="hints">
      <legend>How many people speak?</legend>
      <label for={`${idPrefix}-mode`}>Speakers</label>
      <select id={`${idPrefix}-mode`} value={mode} onChange={(e) => pick(e.currentTarget.value as typeof mode)}>
        <option value="auto">Let the engine decide</option>
        <option value="exact">Exactly</option>
        <option value="range">Between</option>
      </select>
      {mode === 'exact' ? (
        <>
          <label for={`${idPrefix}-num`}>Number of speakers</label>
          <input id={`${idPrefix}-num`} type="number" min={1} max={20} value={value.numSpeakers ?? ''} onInput={(e) => onChange({ numSpeakers: num(e.currentTarget.value) })} />
        </>
      ) : null}
      {mode === 'range' ? (
        <>
          <label for={`${idPrefix}-min`}>At least</label>
          <input id={`${idPrefix}-min`} type="number" min={1} max={20} value={value.minSpeakers ?? ''} onInput={(e) => onChange({ ...value, minSpeakers: num(e.currentTarget.value) })} />
          <label for={`${idPrefix}-max`}>At most</label>
          <input id={`${idPrefix}-max`} type="number" min={1} max={20} value={value.maxSpeakers ?? ''} onInput={(e) => onChange({ ...value, maxSpeakers: num(e.currentTarget.value) })} />
        </>
      ) : null}
    </fieldset>
  );
}

/** Drops fields left empty, so that the SDK sends only what was given. */
export function cleanHints(h: SpeakerHints): SpeakerHints {
  const out: SpeakerHints = {};
  if (h.numSpeakers !== undefined) out.numSpeakers = h.numSpeakers;
  if (h.minSpeakers !== undefined) out.minSpeakers = h.minSpeakers;
  if (h.maxSpeakers !== undefined) out.maxSpeakers = h.maxSpeakers;
  return out;
}
