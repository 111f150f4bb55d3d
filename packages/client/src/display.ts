// How people read what the API answers, the same in every client of this repository (the
// dashboard, the command line, the HTML report): a speaker's display name (decisions §17), times
// and sizes. No runtime dependency; the API itself stays in seconds, bytes and 0-based indexes.

/** Decisions §17: the entity's label when it has one, else "Speaker N" with N = index + 1. */
export function speakerName(index: number, label?: string | null): string {
  return label ?? `Speaker ${index + 1}`;
}

/** Seconds as minutes and seconds with one decimal: 3:03.8 (h:mm:ss.s from an hour); "–" when unknown. */
export function formatSeconds(sec: number | null | undefined): string {
  if (sec === null || sec === undefined || !Number.isFinite(sec)) return '–';
  const tenths = Math.round(Math.max(0, sec) * 10);
  const h = Math.floor(tenths / 36000);
  const m = Math.floor((tenths % 36000) / 600);
  const s = ((tenths % 600) / 10).toFixed(1).padStart(4, '0');
  return h > 0 ? `${h}:${String(m).padStart(2, '0')}:${s}` : `${m}:${s}`;
}

/** Bytes in binary units, named as such: 512 B, 1.5 KiB, 12.3 MiB, 2.0 GiB. */
export function formatBytes(n: number): string {
  if (n < 1024) return `${n} B`;
  const units = ['KiB', 'MiB', 'GiB', 'TiB'];
  let v = n / 1024;
  let i = 0;
  while (v >= 1024 && i < units.length - 1) {
    v /= 1024;
    i++;
  }
  return `${v.toFixed(1)} ${units[i] ?? 'TiB'}`;
}

/**
 * A recording as people tell it apart (issue 40 item 7): its label, else its filename, then its
 * duration and the upload date, so that two "conversation.wav" in a picker or a list differ.
 */
export function recordingName(m: { label?: string | null; filename: string; durationSec: number | null; createdAt: string }): string {
  const day = m.createdAt.slice(0, 16).replace('T', ' ');
  return `${m.label ?? m.filename} · ${formatSeconds(m.durationSec)} · ${day} UTC`;
}
