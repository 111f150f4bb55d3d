import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Output, progressBar, table } from './output.ts';

function sink(isTTY: boolean): NodeJS.WriteStream & { text: string } {
  const s = { isTTY, text: '', write(chunk: string) { s.text += chunk; return true; } };
  return s as unknown as NodeJS.WriteStream & { text: string };
}

test('on a terminal: colours and a live progress line; piped: neither', () => {
  const out = sink(true);
  const err = sink(true);
  const tty = new Output({ json: false, stdout: out, stderr: err, env: {} });
  tty.live(progressBar(0.5));
  tty.result({}, tty.bold('done'));
  assert.ok(err.text.startsWith('\r\u001b[2K[############------------]  50%'), JSON.stringify(err.text));
  assert.ok(out.text.startsWith('\u001b[1mdone'), JSON.stringify(out.text));

  const pout = sink(false);
  const perr = sink(false);
  const piped = new Output({ json: false, stdout: pout, stderr: perr, env: {} });
  piped.live(progressBar(0.5));
  piped.result({}, piped.bold('done'));
  piped.error('bad');
  assert.equal(pout.text, 'done\n');
  assert.equal(perr.text, 'error: bad\n');
});

test('NO_COLOR turns colours off on a terminal; --json writes only JSON', () => {
  const out = sink(true);
  new Output({ json: false, stdout: out, stderr: sink(true), env: { NO_COLOR: '1' } }).result({}, new Output({ json: false, stdout: out, env: { NO_COLOR: '1' } }).bold('x'));
  assert.equal(out.text, 'x\n');
  const jout = sink(true);
  const jerr = sink(true);
  const json = new Output({ json: true, stdout: jout, stderr: jerr, env: {} });
  json.info('note');
  json.live('progress');
  json.result({ a: 1 }, 'text');
  json.error('bad', { code: 'X' });
  assert.deepEqual(JSON.parse(jout.text), { a: 1 });
  assert.deepEqual(JSON.parse(jerr.text), { error: { message: 'bad', code: 'X' } });
});

test('progressBar clamps, table aligns', () => {
  assert.equal(progressBar(2, 4), '[####] 100%');
  assert.equal(progressBar(Number.NaN, 4), '[----]   0%');
  assert.equal(table([['a', 'bbb', 'c'], ['dd', 'e', 'f']]), 'a   bbb  c\ndd  e    f');
});
