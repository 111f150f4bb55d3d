// Reads a text/event-stream response frame by frame, for the stream tests.

export interface SseFrame {
  id?: string;
  event?: string;
  data?: string;
  retry?: string;
  comment?: string;
}

/** Reads a text/event-stream response frame by frame. */
export class SseReader {
  private buffer = '';
  private readonly reader: ReadableStreamDefaultReader<Uint8Array>;
  private readonly decoder = new TextDecoder();
  /** A read still pending after a timed-out `next()`: the following call takes it over. */
  private pending: Promise<ReadableStreamReadResult<Uint8Array>> | null = null;
  ended = false;

  constructor(body: ReadableStream<Uint8Array>) {
    this.reader = body.getReader();
  }

  /** The next frame, or null when the server closed the stream; fails after `timeoutMs`. */
  async next(timeoutMs = 5000): Promise<SseFrame | null> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const end = this.buffer.indexOf('\n\n');
      if (end >= 0) {
        const raw = this.buffer.slice(0, end);
        this.buffer = this.buffer.slice(end + 2);
        const frame: SseFrame = {};
        for (const line of raw.split('\n')) {
          if (line.startsWith(':')) frame.comment = line.slice(1).trim();
          const m = /^(id|event|data|retry): ?(.*)$/.exec(line);
          if (m) frame[m[1] as 'id' | 'event' | 'data' | 'retry'] = m[2];
        }
        return frame;
      }
      if (this.ended) return null;
      const left = deadline - Date.now();
      if (left <= 0) throw new Error(`no SSE frame within ${timeoutMs} ms (buffer: ${JSON.stringify(this.buffer)})`);
      let timer: NodeJS.Timeout | undefined;
      this.pending ??= this.reader.read();
      const chunk = await Promise.race([
        this.pending,
        new Promise<never>((_, reject) => {
          timer = setTimeout(() => reject(new Error(`no SSE frame within ${timeoutMs} ms`)), left);
        }),
      ]).finally(() => clearTimeout(timer));
      this.pending = null;
      if (chunk.done) this.ended = true;
      else this.buffer += this.decoder.decode(chunk.value, { stream: true });
    }
  }

  async cancel(): Promise<void> {
    await this.reader.cancel().catch(() => undefined);
  }
}
