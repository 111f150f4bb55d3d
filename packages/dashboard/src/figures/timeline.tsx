// The speaker timeline: one row per speaker, a bar for each of their segments (each speaker a
// colour), the loudness envelope above when the audio is at hand, the words of an attached
// transcript on the segments they were spoken in, and a playhead. Every bar is a button that
// plays its stretch. It is drawn as wide as its box, one unit a pixel (text at 12 px, the names'
// column at most 40 % of it, ticks far enough apart to read), so that it fits a phone's width
// instead of scrolling sideways. A bar is drawn as long as its stretch (a sliver at least), but
// the pointer reaches it on an invisible hit area at least 24 px wide and a row high (hit-areas.ts),
// so that a short stretch of a long recording can still be tapped and its tooltip hovered.
import type { JSX } from 'preact';
import { fmtSec, speakerColour, useBoxWidth } from '../ui.tsx';
import { hitSpans } from './hit-areas.ts';
import type { Segment } from './speaker-stats.ts';

/** The width drawn before the box is measured (the SVG scales to its box meanwhile). */
const UNMEASURED = 1000;
const ROW = 26;
const ENV_H = 60;
/** Longest name drawn whole beside the timeline (characters), where the width allows it. */
const MAX_NAME = 40;
/** About how wide a character of the 12 px axis text is, in units (pixels). */
const CHAR = 7;
/** The names' column takes at most this share of the width, so that the segments keep the rest. */
const NAMES_SHARE = 0.4;
/** Tick labels ("12:30") at least this far apart, in units. */
const TICK_ROOM = 56;
const STEPS = [1, 2, 5, 10, 15, 30, 60, 120, 300, 600, 900, 1800, 3600];

export function Timeline({ segments, durationSec, names, env, onPlay, playing, texts, at }: {
  segments: readonly Segment[];
  durationSec: number;
  names: (speaker: number) => string;
  env: number[] | null;
  onPlay: ((s: Segment) => void) | null;
  playing: Segment | null;
  /** The transcript's words of each segment (by index), when there is one. */
  texts?: readonly (string | null)[];
  /** Where playback is, seconds. */
  at?: number | null;
}): JSX.Element {
  const box = useBoxWidth<HTMLElement>();
  const speakers = [...new Set(segments.map((s) => s.speaker))].sort((a, b) => a - b);
  const dur = Math.max(durationSec, ...segments.map((s) => s.end), 0.001);
  // Its box less the drawing's border (1 px either side).
  const width = Math.max(200, box.px === undefined ? UNMEASURED : box.px - 2);
  // The names' column is as wide as the longest name (CHAR units a character), up to a limit past
  // which a name is shortened, in full in its tooltip.
  const chars = Math.max(4, Math.min(MAX_NAME, Math.floor((width * NAMES_SHARE - 16) / CHAR)));
  const shown = (sp: number): string => {
    const n = names(sp);
    return n.length > chars ? `${n.slice(0, chars - 1)}…` : n;
  };
  const pad = Math.min(16 + CHAR * chars, Math.max(90, 16 + CHAR * Math.max(8, ...speakers.map((sp) => shown(sp).length))));
  const W = width - pad - 10;
  const x = (t: number): number => (t / dur) * W;
  const top = env ? ENV_H + 8 : 0;
  const h = top + speakers.length * ROW + 20;
  const step = STEPS.find((st) => (st / dur) * W >= TICK_ROOM) ?? Math.ceil(dur / 3600) * 3600;
  return (
    <figure class="timeline" ref={box.ref}>
      <svg viewBox={`-${pad} 0 ${width} ${h}`} role="group" aria-label={`Speaker timeline, ${fmtSec(dur)} long`}>
        {env ? (
          <g aria-hidden="true">
            <path class="envelope" d={envPath(env, W)} fill="#8a8a8a" />
            <text x={-8} y={ENV_H / 2} text-anchor="end" class="axis">loudness</text>
          </g>
        ) : null}
        {speakers.map((sp, row) => {
          const mine = segments.map((s, k) => ({ s, words: texts?.[k] ?? null })).filter(({ s }) => s.speaker === sp);
          // Drawn as long as its stretch, a sliver at least; reached on a hit area at least 24 px wide.
          const drawn = mine.map(({ s }) => ({ from: x(s.start), to: x(s.start) + Math.max(1.5, x(s.end) - x(s.start)) }));
          const hits = hitSpans(drawn, { from: 0, to: W + 10 });
          return (
            <g key={sp}>
              <text x={-8} y={top + row * ROW + 17} text-anchor="end" class="axis name">{shown(sp)}<title>{names(sp)}</title></text>
              {mine.map(({ s, words }, k) => {
                const label = `${names(sp)}, ${fmtSec(s.start)} to ${fmtSec(s.end)}${words ? `: “${words.length > 120 ? `${words.slice(0, 119)}…` : words}”` : ''}${onPlay ? ', play' : ''}`;
                const active = playing === s;
                const props = onPlay ? {
                  role: 'button' as const, tabIndex: 0, 'aria-label': label, 'aria-pressed': active,
                  onClick: () => onPlay(s),
                  onKeyDown: (e: KeyboardEvent) => {
                    if (e.key === 'Enter' || e.key === ' ') {
                      e.preventDefault();
                      onPlay(s);
                    }
                  },
                } : { role: 'img' as const, 'aria-label': label };
                const d = drawn[k]!;
                const hit = hits[k]!;
                return (
                  <g key={`${s.start}`}>
                    {/* For the pointer only (the bar itself is what the keyboard and screen readers reach), under the bar. */}
                    <rect class={`seg-hit${onPlay ? ' playable' : ''}`} aria-hidden="true" data-speaker={sp} data-start={s.start} data-end={s.end}
                      x={hit.from} y={top + row * ROW} width={hit.to - hit.from} height={ROW} fill="transparent" {...(onPlay ? { onClick: () => onPlay(s) } : {})}>
                      <title>{label}</title>
                    </rect>
                    <rect class={`seg${active ? ' active' : ''}${words ? ' worded' : ''}`} data-speaker={sp} data-start={s.start} data-end={s.end} x={d.from} y={top + row * ROW + 3}
                      width={d.to - d.from} height={ROW - 6} fill={speakerColour(sp)} {...props}>
                      <title>{label}</title>
                    </rect>
                  </g>
                );
              })}
            </g>
          );
        })}
        {at !== null && at !== undefined && at > 0 ? <path class="playhead" aria-hidden="true" d={`M${x(Math.min(at, dur)).toFixed(1)} 0V${h - 16}`} /> : null}
        <g aria-hidden="true">
          {/* Each label whole inside the drawing (about 18 units either side of its tick). */}
          {Array.from({ length: Math.floor(dur / step) + 1 }, (_, i) => i * step).filter((t) => x(t) + 18 <= W + 10).map((t) => (
            <text key={t} x={x(t)} y={h - 4} class="axis" text-anchor="middle">{fmtSec(t).replace(/\.0$/, '')}</text>
          ))}
        </g>
      </svg>
    </figure>
  );
}

function envPath(env: number[], W: number): string {
  const n = env.length;
  const mid = ENV_H / 2;
  const up = env.map((v, i) => `${((i / n) * W).toFixed(1)},${(mid - v * mid).toFixed(1)}`);
  const down = env.map((v, i) => `${((i / n) * W).toFixed(1)},${(mid + v * mid).toFixed(1)}`).reverse();
  return `M${up.join('L')}L${down.join('L')}Z`;
}
