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

test('control characters in what is written are shown escaped, never sent to the terminal (issue 41, finding 9)', () => {
  const hostile = 'Ann\u001b]52;c;ZWNobyBwd25lZA==\u0007\rBob\u009b2J\u001b[8m';
  const out = sink(true);
  const err = sink(true);
  const tty = new Output({ json: false, stdout: out, stderr: err, env: {} });
  tty.result({}, `${tty.bold('Label')}: ${hostile}`);
  tty.line(hostile);
  tty.info(hostile);
  tty.error(hostile);
  tty.live(hostile);
  // eslint-disable-next-line no-control-regex
  const controls = (s: string) => [...s.matchAll(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g)].map((m) => m[0].charCodeAt(0).toString(16));
  assert.equal(out.text.split('\n')[0], '\u001b[1mLabel\u001b[0m: Ann\\x1b]52;c;ZWNobyBwd25lZA==\\x07\\x0dBob\\x9b2J\\x1b[8m');
  // What reaches the terminal: only the CLI's own codes (bold, reset, red) and its own live-line \r ESC[2K.
  assert.deepEqual(controls(out.text), ['1b', '1b']);
  assert.deepEqual(controls(err.text), ['1b', '1b', 'd', '1b']);
  const json = sink(false);
  new Output({ json: true, stdout: json, stderr: sink(false), env: {} }).result({ label: hostile });
  assert.deepEqual(controls(json.text), [], 'JSON output escapes C1 controls too');
  assert.equal((JSON.parse(json.text) as { label: string }).label, hostile, 'and still reads back as the label');
});
