// Downloads of what the API gives as files (issue 33 item 14): the diarization as RTTM, WebVTT and
// SRT, the measurements as CSV (the API's own renderer, @rapport/analysis/render, as
// `?format=csv` and the CLI's `--csv`), and a result's standalone HTML report. Each is fetched with
// the key through the SDK (a link cannot carry the key) and handed to the browser as a file.
import type { JSX } from 'preact';
import { useState } from 'preact/hooks';
import { mediaMetricsCsv } from '@rapport/analysis/render';
import type { Session } from './api.ts';
import { ErrorNote } from './ui.tsx';

interface Download {
  label: string;
  filename: string;
  type: string;
  fetch: () => Promise<string>;
}

function save(text: string, filename: string, type: string): void {
  const url = URL.createObjectURL(new Blob([text], { type }));
  const a = document.createElement('a');
  a.href = url;
  a.download = filename;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}

export function Downloads({ items, label }: { items: Download[]; label: string }): JSX.Element {
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState('');
  return (
    <div class="downloads" role="group" aria-label={label}>
      <div class="row">
        {items.map((d) => (
          <button key={d.filename} type="button" disabled={busy === d.filename} data-filename={d.filename} onClick={async () => {
            setError(null);
            setBusy(d.filename);
            try {
              save(await d.fetch(), d.filename, d.type);
            } catch (err) {
              setError(err);
            } finally {
              setBusy('');
            }
          }}>{d.label}</button>
        ))}
      </div>
      <ErrorNote error={error} context="Download failed" />
    </div>
  );
}

/** A recording's files: who speaks when (RTTM, WebVTT, SRT) and each speaker's measurements (CSV). */
export function recordingDownloads(session: Session, id: string, base: string, of = ''): Download[] {
  const file = (format: 'rttm' | 'vtt' | 'srt') => () => session.client.files.diarizationFile(id, format);
  return [
    { label: `RTTM${of}`, filename: `${base}.rttm`, type: 'text/plain', fetch: file('rttm') },
    { label: `WebVTT${of}`, filename: `${base}.vtt`, type: 'text/vtt', fetch: file('vtt') },
    { label: `SRT${of}`, filename: `${base}.srt`, type: 'application/x-subrip', fetch: file('srt') },
    { label: `Measurements${of} (CSV)`, filename: `${base}-metrics.csv`, type: 'text/csv', fetch: async () => mediaMetricsCsv(await session.client.files.metrics(id)) },
  ];
}
