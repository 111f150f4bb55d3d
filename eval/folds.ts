// Speaker-disjoint validation: each fold's conversations (eval/build-validation.ts) scored with
// the model trained without that fold's voices (training/README.md), and the mean and worst fold.
//   npm run eval:folds -- --val /work/val --models DIR [--model-name fold-{k}.json] [--tune JSON] [--count oracle]
//                         [--segmentation DIR [--segmentation-name fold-{k}.onnx]] [--baseline OLD-folds-summary.json]
// --segmentation DIR: fold K's segmentation network is DIR/fold-K.onnx (training/train-segmentation.sh);
// without it the built-in network runs, whose training saw every voice (not speaker-disjoint).
// DIR/fold-K.json is fold K's model; --models none runs the committed model on every fold (its
// training saw every corpus voice, so those figures are not speaker-disjoint: a reference only).
// Prints the fold table and writes DIR/folds-summary.json (or --json OUT), with every file's
// figures. --baseline compares file by file with an earlier summary (paired-comparison.ts): on
// 42 files a mean moves by a point or two on noise alone, so a change is judged by how many files
// it helps and hurts as well as by the means.
import { parseArgs } from 'node:util';
import { spawn } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, writeFileSync, mkdtempSync } from 'node:fs';
import { join } from 'node:path';
import { tmpdir } from 'node:os';
import type { SetSummary } from './seed-table.ts';
import { pairedComparison, type FileFigures } from './paired-comparison.ts';

const { values } = parseArgs({ options: { val: { type: 'string' }, models: { type: 'string' }, 'model-name': { type: 'string', default: 'fold-{k}.json' }, tune: { type: 'string' }, count: { type: 'string' }, baseline: { type: 'string' }, json: { type: 'string' }, files: { type: 'string' }, segmentation: { type: 'string' }, 'segmentation-name': { type: 'string', default: 'fold-{k}.onnx' }, voiceprint: { type: 'string' } } });
if (!values.val || !values.models) {
  console.error('usage: npm run eval:folds -- --val DIR --models DIR|none [--model-name fold-{k}.json] [--segmentation DIR [--segmentation-name fold-{k}.onnx]] [--tune JSON] [--count oracle] [--json OUT]');
  process.exit(2);
}
const folds = readdirSync(values.val).filter((d) => /^fold-\d+$/.test(d)).sort();
const tmp = mkdtempSync(join(tmpdir(), 'folds-'));
const runs = folds.map(async (fold) => {
  const k = fold.slice(5);
  const args = ['eval/run.ts', '--dataset', join(values.val!, fold), '--json', join(tmp, `${fold}.json`), '--quiet'];
  if (values.models !== 'none') {
    const model = join(values.models!, values['model-name']!.replace('{k}', k));
    if (!existsSync(model)) throw new Error(`no model for ${fold}: ${model}`);
    args.push('--model', model);
  }
  if (values.segmentation) {
    const seg = join(values.segmentation, values['segmentation-name']!.replace('{k}', k));
    if (!existsSync(seg)) throw new Error(`no segmentation network for ${fold}: ${seg}`);
    args.push('--segmentation', seg);
  }
  if (values.voiceprint) args.push('--voiceprint', values.voiceprint);
  if (values.tune) args.push('--tune', values.tune);
  if (values.count) args.push('--count', values.count);
  if (values.files) args.push('--files', values.files);
  // The folds run side by side, each in its own process.
  const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'inherit'] });
  let out = '';
  child.stdout.on('data', (b: Buffer) => (out += b.toString()));
  const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
  if (code !== 0) throw new Error(`eval of ${fold} failed`);
  process.stderr.write(`${fold}\n${out}\n`);
  const result = JSON.parse(readFileSync(join(tmp, `${fold}.json`), 'utf8')) as { summary: SetSummary; files: FileFigures[] };
  return { fold, s: result.summary, files: result.files };
});
const rows = await Promise.all(runs);

type Key = 'der_collar_025' | 'confusion_025' | 'speaker_count_exact' | 'talk_share_error_pp' | 'identity_f1' | 'selector_accuracy' | 'speed_x_real_time';
const cols: { key: Key; name: string; pct: boolean; lowerBetter: boolean }[] = [
  { key: 'der_collar_025', name: 'DER 0.25 %', pct: true, lowerBetter: true },
  { key: 'confusion_025', name: 'confusion %', pct: true, lowerBetter: true },
  { key: 'speaker_count_exact', name: 'exact count %', pct: true, lowerBetter: false },
  { key: 'talk_share_error_pp', name: 'talk share pp', pct: false, lowerBetter: true },
  { key: 'identity_f1', name: 'identity F1', pct: false, lowerBetter: false },
  { key: 'selector_accuracy', name: 'selectors %', pct: true, lowerBetter: false },
  { key: 'speed_x_real_time', name: 'x real time', pct: false, lowerBetter: false },
];
const fmt = (c: (typeof cols)[number], v: number | null): string => (v === null ? '-' : c.pct ? (100 * v).toFixed(1) : c.key === 'identity_f1' ? v.toFixed(3) : c.key === 'speed_x_real_time' ? v.toFixed(0) : v.toFixed(2));
const lines = [`| fold | files | ${cols.map((c) => c.name).join(' | ')} |`, `|---|---|${cols.map(() => '---').join('|')}|`];
for (const r of rows) lines.push(`| ${r.fold} | ${r.s.files} | ${cols.map((c) => fmt(c, r.s[c.key])).join(' | ')} |`);
const mean: Record<string, number | null> = {};
const worst: Record<string, number | null> = {};
for (const c of cols) {
  const xs = rows.map((r) => r.s[c.key]).filter((x): x is number => x !== null);
  mean[c.key] = xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : null;
  worst[c.key] = xs.length ? (c.lowerBetter ? Math.max(...xs) : Math.min(...xs)) : null;
}
lines.push(`| **mean** | ${rows.reduce((a, r) => a + r.s.files, 0)} | ${cols.map((c) => fmt(c, mean[c.key]!)).join(' | ')} |`);
lines.push(`| worst fold | - | ${cols.map((c) => fmt(c, worst[c.key]!)).join(' | ')} |`);
console.log(lines.join('\n'));
const out = values.json ?? (values.models !== 'none' ? join(values.models, 'folds-summary.json') : join(tmp, 'folds-summary.json'));
writeFileSync(out, JSON.stringify({ folds: rows, mean, worst }, null, 1));
if (values.baseline) {
  const before = JSON.parse(readFileSync(values.baseline, 'utf8')) as { folds: { files?: FileFigures[] }[] };
  console.log(pairedComparison(before.folds.flatMap((f) => f.files ?? []), rows.flatMap((r) => r.files)));
}
console.error(`wrote ${out}`);
