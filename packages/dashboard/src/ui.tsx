// Small shared pieces: the error note (every API error in words with its request id), an async
// loader hook, pagination by cursor, an inline confirmation, a region that scrolls sideways with
// a cue, an element's measured width, and formatting helpers.
import type { ComponentChildren, JSX } from 'preact';
import { useCallback, useEffect, useRef, useState } from 'preact/hooks';
import { describeError } from './api.ts';

export function ErrorNote({ error, context }: { error: unknown; context?: string }): JSX.Element | null {
  if (error === null || error === undefined) return null;
  const e = describeError(error);
  return (
    <div class="error" role="alert">
      <strong>{context ? `${context}: ` : ''}{e.message}</strong>
      {e.code ? <span class="code"> ({e.code})</span> : null}
      {e.details.length ? <ul>{e.details.map((d) => <li key={d}>{d}</li>)}</ul> : null}
      {e.requestId ? <div class="reqid">Request id: <code>{e.requestId}</code></div> : null}
    </div>
  );
}

export interface Async<T> {
  data: T | undefined;
  error: unknown;
  loading: boolean;
  reload: () => void;
  set: (t: T) => void;
}

/** Runs `load` when `deps` change (and on `reload`); the latest call wins. */
export function useAsync<T>(load: (signal: AbortSignal) => PromiseLike<T>, deps: unknown[]): Async<T> {
  const [data, setData] = useState<T | undefined>(undefined);
  const [error, setError] = useState<unknown>(null);
  const [loading, setLoading] = useState(true);
  const [tick, setTick] = useState(0);
  useEffect(() => {
    const ctl = new AbortController();
    setLoading(true);
    Promise.resolve(load(ctl.signal)).then(
      (d) => {
        if (ctl.signal.aborted) return;
        setData(d);
        setError(null);
        setLoading(false);
      },
      (err: unknown) => {
        if (ctl.signal.aborted) return;
        setError(err);
        setLoading(false);
      },
    );
    return () => ctl.abort();
  }, [...deps, tick]);
  const reload = useCallback(() => setTick((t) => t + 1), []);
  return { data, error, loading, reload, set: setData };
}

/** Cursor paging: a stack of the cursors of the pages before this one. */
export function useCursorPages(): { cursor: string | undefined; page: number; next: (c: string) => void; prev: () => void; reset: () => void } {
  const [stack, setStack] = useState<(string | undefined)[]>([undefined]);
  return {
    cursor: stack[stack.length - 1],
    page: stack.length,
    next: (c) => setStack((s) => [...s, c]),
    prev: () => setStack((s) => (s.length > 1 ? s.slice(0, -1) : s)),
    reset: () => setStack([undefined]),
  };
}

export function Pager({ page, hasNext, onNext, onPrev, label }: { page: number; hasNext: boolean; onNext: () => void; onPrev: () => void; label: string }): JSX.Element {
  return (
    <nav class="pager" aria-label={`${label} pages`}>
      <button type="button" onClick={onPrev} disabled={page <= 1}>Previous</button>
      <span>Page {page}</span>
      <button type="button" onClick={onNext} disabled={!hasNext}>Next</button>
    </nav>
  );
}

/** A button that asks again inline before it acts (no browser dialog). */
export function ConfirmButton({ label, question, onConfirm, danger = true }: { label: string; question: string; onConfirm: () => Promise<void> | void; danger?: boolean }): JSX.Element {
  const [asking, setAsking] = useState(false);
  const [busy, setBusy] = useState(false);
  const yes = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    if (asking) yes.current?.focus();
  }, [asking]);
  if (!asking) return <button type="button" class={danger ? 'danger' : ''} onClick={() => setAsking(true)}>{label}</button>;
  return (
    <span class="confirm" role="group" aria-label={question}>
      <span>{question}</span>
      <button ref={yes} type="button" class={danger ? 'danger' : ''} disabled={busy} onClick={async () => {
        setBusy(true);
        try {
          await onConfirm();
        } finally {
          setBusy(false);
          setAsking(false);
        }
      }}>Yes, {label.toLowerCase()}</button>
      <button type="button" onClick={() => setAsking(false)}>Cancel</button>
    </span>
  );
}

export function Section({ title, children, id }: { title: string; children: ComponentChildren; id?: string }): JSX.Element {
  return (
    <section class="panel" aria-labelledby={id ?? slug(title)}>
      <h2 id={id ?? slug(title)}>{title}</h2>
      {children}
    </section>
  );
}

/** Which sides of a scrolled element have more content past its edge. */
function edgesOf(el: HTMLElement): { left: boolean; right: boolean } {
  return { left: el.scrollLeft > 1, right: el.scrollLeft + el.clientWidth < el.scrollWidth - 1 };
}

/**
 * Content that may be wider than the screen (a wide table, the timeline), in a region that scrolls
 * sideways in place, so that the page itself never does and nothing is cut off silently (issue 40
 * item 8). While the content overflows, a cue above it says so ("scroll →", "← scroll" at the far
 * end) and the side it overflows on is shaded. Focusable (the arrow keys scroll it) and named.
 */
export function ScrollRegion({ label, children }: { label: string; children: ComponentChildren }): JSX.Element {
  const ref = useRef<HTMLDivElement>(null);
  const [edges, setEdges] = useState({ left: false, right: false });
  useEffect(() => {
    const el = ref.current;
    if (!el) return;
    const update = () => {
      const next = edgesOf(el);
      setEdges((e) => (e.left === next.left && e.right === next.right ? e : next));
    };
    update();
    el.addEventListener('scroll', update, { passive: true });
    // Its own width follows the page's; its content's width follows what is drawn in it.
    const observer = new ResizeObserver(update);
    observer.observe(el);
    for (const child of Array.from(el.children)) observer.observe(child);
    return () => {
      el.removeEventListener('scroll', update);
      observer.disconnect();
    };
  }, []);
  const more = edges.left || edges.right;
  return (
    <div class={`scroll-region${edges.left ? ' more-left' : ''}${edges.right ? ' more-right' : ''}`}>
      {more ? <p class="scroll-cue" aria-hidden="true">{edges.right ? 'scroll →' : '← scroll'}</p> : null}
      <div class="scroll-frame">
        <div ref={ref} class="scroll-inner" tabIndex={0} role="region" aria-label={more ? `${label}, scrolls sideways` : label}>
          {children}
        </div>
      </div>
    </div>
  );
}

/**
 * The content width of the element `ref` is given to, in CSS pixels, followed as the page
 * resizes (undefined until it is measured): what a drawing needs to be drawn one unit a pixel,
 * text at its size, across the room there is.
 */
export function useBoxWidth<T extends HTMLElement>(): { ref: { current: T | null }; px: number | undefined } {
  const ref = useRef<T | null>(null);
  const [px, setPx] = useState<number | undefined>(undefined);
  useEffect(() => {
    const el = ref.current;
    if (!el) return;
    const measure = () => setPx(Math.floor(el.clientWidth));
    measure();
    const observer = new ResizeObserver(measure);
    observer.observe(el);
    return () => observer.disconnect();
  }, []);
  return { ref, px };
}

export function slug(s: string): string {
  return s.toLowerCase().replace(/[^a-z0-9]+/g, '-');
}

export { formatSeconds as fmtSec, formatBytes as fmtBytes } from '@rapport/client';

export function fmtDate(iso: string | null | undefined): string {
  if (!iso) return '–';
  return new Date(iso).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });
}

/** Speaker colours: the Okabe–Ito palette (distinguishable with colour-blindness), cycled. */
export const SPEAKER_COLOURS = ['#0072B2', '#D55E00', '#009E73', '#CC79A7', '#E69F00', '#56B4E9', '#7a6a00', '#000000'];
export function speakerColour(i: number): string {
  return SPEAKER_COLOURS[i % SPEAKER_COLOURS.length] ?? '#000';
}
