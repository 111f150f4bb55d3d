// Helpers for the tests that run the SDK against a real service (startService from the server
// package: a real HTTP server on 127.0.0.1 with its worker and a fresh store), plus the media
// those tests upload: a synthetic two-voice WAV and a matching WebVTT transcript.
import { startService } from '@rapport/server';
import { alternatingTwoVoices } from '@rapport/analysis/synthetic';

export type Service = Awaited<ReturnType<typeof startService>>;

/**
 * A service whose limits do not get in the way of a test file that uploads a lot, and whose
 * analyses run at normal priority (ANALYSIS_SCHEDULING=normal): under the default, `idle`
 * (SCHED_IDLE), an analysis gets a core only when no normal thread wants one, so while the test
 * files run beside it (or anything else) keep the host's cores busy it hardly runs, and a test
 * waiting for it times out (sdk.real.test.ts: "analysis did not finish" with both cores busy).
 * How analyses are scheduled is analysis-process.test.ts's subject, not these files'.
 */
export function start(env: Record<string, string> = {}): Promise<Service> {
  return startService({ env: { RATE_LIMIT_UPLOAD: '1000', RATE_LIMIT_JOB_STATUS: '1000', RATE_LIMIT_FILES: '1000', ANALYSIS_SCHEDULING: 'normal', ...env } });
}

const RATE = 16_000;

/**
 * Two alternating synthetic voices (a man near 120 Hz and a woman near 210 Hz, 3.5 s turns every
 * 4 s: the engine's alternatingTwoVoices, speech with consonants so that the speech detector
 * hears it), 16 kHz mono 16-bit PCM. Whether it finds two speakers is the engine's business.
 */
export function twoVoiceWav(seconds = 24): Uint8Array {
  const samples = alternatingTwoVoices(seconds, { rate: RATE });
  const n = samples.length;
  const pcm = Int16Array.from(samples, (v) => Math.max(-32768, Math.min(32767, Math.round(v * 32767))));
  const header = new DataView(new ArrayBuffer(44));
  const ascii = (o: number, s: string): void => [...s].forEach((c, j) => header.setUint8(o + j, c.charCodeAt(0)));
  ascii(0, 'RIFF');
  header.setUint32(4, 36 + n * 2, true);
  ascii(8, 'WAVE');
  ascii(12, 'fmt ');
  header.setUint32(16, 16, true);
  header.setUint16(20, 1, true);
  header.setUint16(22, 1, true);
  header.setUint32(24, RATE, true);
  header.setUint32(28, RATE * 2, true);
  header.setUint16(32, 2, true);
  header.setUint16(34, 16, true);
  ascii(36, 'data');
  header.setUint32(40, n * 2, true);
  const out = new Uint8Array(44 + n * 2);
  out.set(new Uint8Array(header.buffer), 0);
  out.set(new Uint8Array(pcm.buffer), 44);
  return out;
}

/** A transcript of the same conversation, turn for turn. */
export function twoVoiceVtt(seconds = 24): string {
  const lines = ['WEBVTT', ''];
  const fmt = (s: number): string => `00:00:${s.toFixed(3).padStart(6, '0')}`;
  const said = ['How was your week?', 'Busy, but good. We shipped the release.', 'What was the hardest part?', 'Testing uploads, honestly.', 'And what comes next?', 'A long weekend.'];
  for (let k = 0, t = 0; t + 3.5 <= seconds; k++, t += 4) {
    lines.push(`${fmt(t)} --> ${fmt(t + 3.5)}`, `<v ${k % 2 === 0 ? 'Ann' : 'Bob'}>${said[k % said.length]}`, '');
  }
  return lines.join('\n');
}

/** Wraps fetch so that the first event stream breaks after `events` complete events. */
export function cuttingFetch(events: number): typeof fetch & { streams: { lastEventId: string | null }[] } {
  const streams: { lastEventId: string | null }[] = [];
  const wrapped = async (input: RequestInfo | URL, init?: RequestInit): Promise<Response> => {
    const res = await fetch(input, init);
    if (!String(input).endsWith('/events') || !res.body) return res;
    streams.push({ lastEventId: new Headers(init?.headers).get('last-event-id') });
    if (streams.length > 1) return res;
    const reader = res.body.getReader();
    const decoder = new TextDecoder();
    const encoder = new TextEncoder();
    let buffered = '';
    let sent = 0;
    const body = new ReadableStream<Uint8Array>({
      async pull(controller) {
        const { value, done } = await reader.read();
        if (done) return controller.close();
        buffered += decoder.decode(value, { stream: true });
        let end: number;
        while ((end = buffered.indexOf('\n\n')) >= 0) {
          const frame = buffered.slice(0, end + 2);
          buffered = buffered.slice(end + 2);
          controller.enqueue(encoder.encode(frame));
          if (frame.includes('\ndata:') || frame.startsWith('data:')) sent++;
          if (sent === events) {
            await reader.cancel();
            // What undici raises when a connection drops mid-body.
            controller.error(new TypeError('terminated'));
            return;
          }
        }
      },
    });
    return new Response(body, { status: res.status, statusText: res.statusText, headers: res.headers });
  };
  return Object.assign(wrapped as typeof fetch, { streams });
}

/** A local port with nothing listening (connections are refused), for connection-error tests. */
export async function closedPort(): Promise<number> {
  const { createServer } = await import('node:net');
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}
