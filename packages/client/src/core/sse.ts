// A text/event-stream parser (the WHATWG framing: `id:`, `event:`, `data:`, `retry:`, comments),
// written against web streams so that it runs in Node and in browsers alike.

export interface ServerSentEvent {
  id: string | null;
  event: string;
  data: string;
}

export interface SseState {
  /** The last `id:` seen, to send back as `Last-Event-ID` when reconnecting. */
  lastEventId: string | null;
  /** The server's `retry:` advice in milliseconds, if any. */
  retryMs: number | null;
}

/** Yields the events of one connection; ends when the body ends. Updates `state` as it goes. */
export async function* parseSse(body: ReadableStream<Uint8Array>, state: SseState): AsyncGenerator<ServerSentEvent> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let buffer = '';
  let data: string[] = [];
  let event = '';
  let id: string | null = null;
  try {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) return;
      buffer += decoder.decode(value, { stream: true });
      let nl: number;
      while ((nl = buffer.search(/\r\n|\r|\n/)) >= 0) {
        // A lone CR at the end may be the first half of a CRLF split across chunks.
        if (nl === buffer.length - 1 && buffer[nl] === '\r') break;
        const line = buffer.slice(0, nl);
        buffer = buffer.slice(nl + (buffer[nl] === '\r' && buffer[nl + 1] === '\n' ? 2 : 1));
        if (line === '') {
          if (data.length > 0) {
            if (id !== null) state.lastEventId = id;
            yield { id: state.lastEventId, event: event || 'message', data: data.join('\n') };
          }
          data = [];
          event = '';
          id = null;
          continue;
        }
        if (line.startsWith(':')) continue;
        const colon = line.indexOf(':');
        const field = colon < 0 ? line : line.slice(0, colon);
        let val = colon < 0 ? '' : line.slice(colon + 1);
        if (val.startsWith(' ')) val = val.slice(1);
        if (field === 'data') data.push(val);
        else if (field === 'event') event = val;
        else if (field === 'id' && !val.includes('\0')) id = val;
        else if (field === 'retry' && /^\d+$/.test(val)) state.retryMs = Number(val);
      }
    }
  } finally {
    await reader.cancel().catch(() => undefined);
  }
}
