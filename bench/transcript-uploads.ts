// The client of bench/transcripts.ts, in a process of its own (as any real client is): builds a
// WebVTT of CUES cues of the text TEXT, in a multipart body once, and uploads it COUNT times in a
// row to BASE_URL/v1/files with API_KEY. Prints one JSON line: the file's size and the statuses.
import http from 'node:http';
import { vtt } from './transcripts-vtt.ts';

const [base, apiKey, cues, text, count] = [process.env.BASE_URL ?? '', process.env.API_KEY ?? '', Number(process.env.CUES), process.env.TEXT ?? 'w', Number(process.env.COUNT)];
const file = vtt(cues, text);
const boundary = `----rapport-bench-${Math.random().toString(16).slice(2)}`;
const body = Buffer.concat([
  Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="big.vtt"\r\nContent-Type: text/vtt\r\n\r\n`),
  file,
  Buffer.from(`\r\n--${boundary}--\r\n`),
]);
const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
const statuses: number[] = [];
for (let i = 0; i < count; i++) {
  statuses.push(await new Promise<number>((resolve, reject) => {
    const req = http.request(`${base}/v1/files`, {
      method: 'POST', agent,
      headers: { 'service-api-key': apiKey, 'content-type': `multipart/form-data; boundary=${boundary}`, 'content-length': body.length },
    }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
    });
    req.on('error', reject);
    req.end(body);
  }));
}
agent.destroy();
console.log(JSON.stringify({ bytes: file.length, statuses }));
