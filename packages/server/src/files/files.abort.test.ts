// A client that goes away mid-upload, over a real socket: the temporary file is removed and no
// media row is written; the server keeps serving.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import net from 'node:net';
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { buildTestApp, call, waitFor, type TestApp } from '../../test/helpers.ts';
import { BOUNDARY, fileUpload, wavFile } from './files.fixtures.testkit.ts';

describe('client abort mid-upload', () => {
  let t: TestApp;
  let port = 0;
  before(async () => {
    t = await buildTestApp({ RATE_LIMIT_UPLOAD: '1000' });
    await t.app.listen({ host: '127.0.0.1', port: 0 });
    const addr = t.app.server.address();
    port = typeof addr === 'object' && addr ? addr.port : 0;
  });
  after(async () => t.close());

  const tmpFiles = () => readdirSync(path.join(t.dataDir, 'tmp'));
  const mediaRows = async () => (await t.sql.get<{ n: number }>('SELECT COUNT(*) AS n FROM media'))?.n;

  it('removes the partial file and writes no row when the connection drops', async () => {
    const declared = 4 * 1024 * 1024;
    const socket = net.connect(port, '127.0.0.1');
    await new Promise<void>((resolve, reject) => socket.once('connect', resolve).once('error', reject));
    socket.on('error', () => undefined);
    socket.write(
      `POST /v1/files HTTP/1.1\r\nHost: 127.0.0.1\r\nService-Api-Key: ${t.main.apiKey}\r\n` +
        `Content-Type: multipart/form-data; boundary=${BOUNDARY}\r\nContent-Length: ${declared}\r\n\r\n` +
        `--${BOUNDARY}\r\nContent-Disposition: form-data; name="file"; filename="long.wav"\r\nContent-Type: audio/wav\r\n\r\n`,
    );
    // Half a megabyte of a WAV that claims to be much longer: the server is mid-stream.
    socket.write(wavFile(16));
    await waitFor(() => tmpFiles().length > 0, 5000, 'the upload to reach a temporary file');
    socket.destroy();
    await waitFor(() => tmpFiles().length === 0, 5000, 'the temporary file to be removed');
    assert.equal(await mediaRows(), 0);
    assert.deepEqual(readdirSync(path.join(t.dataDir, 'media')), []);

    // The server is fine afterwards.
    const ok = await call(t, t.main, { method: 'POST', url: '/v1/files', ...fileUpload(wavFile(0.5), 'a.wav') });
    assert.equal(ok.statusCode, 201, ok.body);
  });
});
