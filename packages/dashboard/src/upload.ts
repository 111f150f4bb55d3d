// Uploads with a real progress bar. Browsers report the progress of a request body only through
// XMLHttpRequest (fetch has no upload progress), so uploads give the SDK this `fetch`: same
// request, same Response, plus `upload.onprogress`. The SDK still builds the request and its errors.
export function progressFetch(onProgress: (loaded: number, total: number) => void): typeof fetch {
  const f = (input: RequestInfo | URL, init: RequestInit = {}): Promise<Response> =>
    new Promise((resolve, reject) => {
      const xhr = new XMLHttpRequest();
      xhr.open(init.method ?? 'GET', String(input instanceof Request ? input.url : input));
      new Headers(init.headers).forEach((v, k) => xhr.setRequestHeader(k, v));
      xhr.responseType = 'text';
      xhr.upload.onprogress = (e) => {
        if (e.lengthComputable) onProgress(e.loaded, e.total);
      };
      xhr.onload = () => {
        const headers = new Headers();
        for (const line of xhr.getAllResponseHeaders().trim().split(/[\r\n]+/)) {
          const at = line.indexOf(':');
          if (at > 0) headers.append(line.slice(0, at).trim(), line.slice(at + 1).trim());
        }
        const body = xhr.status === 204 ? null : xhr.responseText;
        resolve(new Response(body, { status: xhr.status, statusText: xhr.statusText, headers }));
      };
      xhr.onerror = () => reject(new TypeError('Failed to fetch'));
      xhr.onabort = () => reject(new DOMException('The upload was aborted', 'AbortError'));
      const signal = init.signal;
      if (signal) {
        if (signal.aborted) return xhr.abort();
        signal.addEventListener('abort', () => xhr.abort(), { once: true });
      }
      xhr.send(init.body as XMLHttpRequestBodyInit | null | undefined);
    });
  return f as typeof fetch;
}
