// When to say "the number of speakers is uncertain": the count evidence every analysis records
// (method.countEvidence: the clustering's next merge not made and last merge made, each over its
// threshold) against whether the count was right, on the
// speaker-disjoint folds. A count is flagged when its nearest pair is under `near` (maybe one
// speaker too many) or its widest split is over `split` (maybe one too few). Thresholds are
// chosen nested: for each fold, the pair that is best on the other folds' files (the most wrong
// counts flagged, at most `maxFlagRight` of the right ones flagged), then scored on the fold.
//
//   node eval/count-certainty.ts SUMMARY.json [--max-flag-right 0.25]
//
// SUMMARY.json: eval/folds.ts's output (DIR/folds-summary.json), whose files carry count_evidence.
import { parseArgs } from 'node:util';
import { readFileSync } from 'node:fs';

interface FileRow {
  name: string;
  ref: number;
  hyp: number;
  count_evidence: { nearestPair: number | null; widestSplit: number | null } | null;
}

export interface Rule {
  near: number;
  split: number;
}

export function flagged(f: FileRow, r: Rule): boolean {
  const e = f.count_evidence;
  if (!e) return false;
  return (e.nearestPair !== null && e.nearestPair < r.near) || (e.widestSplit !== null && e.widestSplit > r.split);
}

export interface RuleScore {
  wrong: number;
  right: number;
  wrongFlagged: number;
  rightFlagged: number;
}

export function scoreRule(files: FileRow[], r: Rule): RuleScore {
  const s: RuleScore = { wrong: 0, right: 0, wrongFlagged: 0, rightFlagged: 0 };
  for (const f of files) {
    const wrong = f.ref !== f.hyp;
    const flag = flagged(f, r);
    if (wrong) {
      s.wrong++;
      if (flag) s.wrongFlagged++;
    } else {
      s.right++;
      if (flag) s.rightFlagged++;
    }
  }
  return s;
}

/** The rule that flags the largest share of wrong counts while flagging at most maxFlagRight of the right ones (ties: fewer right ones flagged). */
export function bestRule(files: FileRow[], grid: Rule[], maxFlagRight: number): Rule {
  let best = grid[0]!;
  let key = [-1, 0];
  for (const r of grid) {
    const s = scoreRule(files, r);
    if (s.right > 0 && s.rightFlagged / s.right > maxFlagRight) continue;
    const k = [s.wrong ? s.wrongFlagged / s.wrong : 0, s.right ? -s.rightFlagged / s.right : 0];
    if (k[0]! > key[0]! || (k[0] === key[0] && k[1]! > key[1]!)) [best, key] = [r, k];
  }
  return best;
}

if (import.meta.main) {
  const { values, positionals } = parseArgs({ allowPositionals: true, options: { 'max-flag-right': { type: 'string', default: '0.25' } } });
  const path = positionals[0];
  if (!path) {
    console.error('usage: node eval/count-certainty.ts SUMMARY.json [--max-flag-right 0.25]');
    process.exit(2);
  }
  const folds = (JSON.parse(readFileSync(path, 'utf8')) as { folds: { fold: string; files: FileRow[] }[] }).folds;
  // The clustering's margins (diarization/clustering.ts): the next merge not made and the last one
  // made, each over the threshold, so both sit near 1 when the count was close to another.
  const nears = [1, 1.02, 1.05, 1.08, 1.1, 1.15, 1.2, 1.3, 1.5, 2];
  const splits = [0.5, 0.6, 0.7, 0.8, 0.85, 0.9, 0.95, 0.98, 1];
  const grid = nears.flatMap((near) => splits.map((split) => ({ near, split })));
  const max = Number(values['max-flag-right']);
  console.log('| fold | rule (fitted on the other folds) | wrong counts flagged | right counts flagged |');
  console.log('|---|---|---|---|');
  const total: RuleScore = { wrong: 0, right: 0, wrongFlagged: 0, rightFlagged: 0 };
  for (const f of folds) {
    const rule = bestRule(folds.filter((g) => g !== f).flatMap((g) => g.files), grid, max);
    const s = scoreRule(f.files, rule);
    for (const k of Object.keys(total) as (keyof RuleScore)[]) total[k] += s[k];
    console.log(`| ${f.fold} | near < ${rule.near}, split > ${rule.split} | ${s.wrongFlagged}/${s.wrong} | ${s.rightFlagged}/${s.right} |`);
  }
  const all = bestRule(folds.flatMap((g) => g.files), grid, max);
  console.log(`| all (held out) | - | ${total.wrongFlagged}/${total.wrong} | ${total.rightFlagged}/${total.right} |`);
  console.log(`\nRule fitted on every fold: near < ${all.near}, split > ${all.split}`);
}
