// docs/results.md shows the Markdown of one generated matching result. This test builds that
// result again and fails when the committed snapshot differs, so the documentation cannot drift
// from the code; `UPDATE_DOCS=1` rewrites the snapshot instead.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { sampleMatching } from '../src/documents/sample.testkit.ts';
import { validateResultDocument } from '../src/documents/schema.ts';

const DOC = new URL('../../../docs/results.md', import.meta.url);
const BEGIN = '<!-- snapshot:begin (written by packages/analysis/test/results-doc.test.ts; UPDATE_DOCS=1 to regenerate) -->';
const END = '<!-- snapshot:end -->';

test('docs/results.md holds the Markdown of the generated matching result, as the code writes it today', () => {
  const built = sampleMatching();
  assert.deepEqual(validateResultDocument(built.document, { strictIcons: true }), []);
  const fence = '`'.repeat(4);
  const snapshot = `${BEGIN}\n\n${fence}markdown\n${built.markdown}${fence}\n\n${END}`;
  const text = readFileSync(DOC, 'utf8');
  const start = text.indexOf(BEGIN);
  const end = text.indexOf(END);
  assert.ok(start >= 0 && end > start, 'docs/results.md has the snapshot markers');
  const current = text.slice(start, end + END.length);
  if (process.env.UPDATE_DOCS === '1') {
    writeFileSync(DOC, text.slice(0, start) + snapshot + text.slice(end + END.length));
    return;
  }
  assert.equal(current, snapshot, 'docs/results.md is out of date: run UPDATE_DOCS=1 npm run test:unit -- results-doc');
});
