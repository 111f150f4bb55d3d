// Issue 32, finding 7: entity labels, media labels and file names reached a result's Markdown as
// they were (`<img src=x>` appeared raw). Every document string is now escaped there.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { escapeMarkdown } from './markdown-escape.ts';
import { buildMatching } from './matching.ts';
import { buildReport } from './report.ts';
import { aggregateMetrics } from '../behavior/speaker-metrics.ts';
import { conversation, makeMedia } from '../behavior/fixtures.testkit.ts';
import type { MediaAnalysis } from '../types.ts';
import type { MemberInput } from './types.ts';

test('escapeMarkdown: HTML, inline markup, links, line breaks and block openers show as text', () => {
  assert.equal(escapeMarkdown('<img src=x onerror=alert(1)>'), '&lt;img src=x onerror=alert(1)&gt;');
  assert.equal(escapeMarkdown('**bold** _it_ `code` ~~s~~ a|b'), '\\*\\*bold\\*\\* \\_it\\_ \\`code\\` \\~\\~s\\~\\~ a\\|b');
  assert.equal(escapeMarkdown('[click](javascript:alert(1))'), '\\[click\\](javascript:alert(1))');
  assert.equal(escapeMarkdown('![x](http://evil/x.png)'), '!\\[x\\](http://evil/x.png)');
  assert.equal(escapeMarkdown('# Heading'), '\\# Heading');
  assert.equal(escapeMarkdown('1. item'), '1\\. item');
  assert.equal(escapeMarkdown('- item'), '\\- item');
  assert.equal(escapeMarkdown('a\n# b\r\n<script>'), 'a # b &lt;script&gt;');
  assert.equal(escapeMarkdown('Tom & Jerry \\o/'), 'Tom &amp; Jerry \\\\o/');
  assert.equal(escapeMarkdown('Speaker 2 in interview.wav'), 'Speaker 2 in interview.wav', 'plain text unchanged');
});

const media: Record<string, MediaAnalysis> = { med_a: makeMedia(conversation(21, 150, true)) };
const HOSTILE = ['<img src=x onerror=alert(1)>', '[click](javascript:alert(1))', '**Boss**\n# Fired'];
function member(ref: string, index: number, name: string): MemberInput {
  const metrics = aggregateMetrics([{ metrics: media.med_a!.speakers[index]!.metrics }]);
  return { ref, entityId: null, metrics, appearances: [{ mediaId: 'med_a', speakerIndex: index }], name };
}

/** The Markdown without its fenced code blocks, whose text is literal (figures). */
function outsideFences(md: string): string {
  return md.replace(/^(`{3,})text\n[\s\S]*?^\1$/gm, '');
}

test('a matching and a report named by hostile labels carry them escaped in their Markdown', () => {
  const matching = buildMatching({ target: member('target', 0, HOSTILE[0]!), group: [member('group[0]', 1, HOSTILE[1]!)], media });
  const report = buildReport({ target: member('target', 0, HOSTILE[2]!), media });
  for (const md of [matching.markdown, report.markdown].map(outsideFences)) {
    assert.doesNotMatch(md, /<img|<script/i, 'no raw HTML');
    assert.doesNotMatch(md, /(?<!\\)\[click(?<!\\)\]\(/, 'no link');
    assert.doesNotMatch(md, /^# Fired/m, 'no heading of a label');
    assert.doesNotMatch(md, /(?<!\\)\*\*Boss(?<!\\)\*\*/, 'no bold of a label');
  }
  assert.ok(matching.markdown.includes(escapeMarkdown(HOSTILE[0]!)));
  assert.ok(report.markdown.includes(escapeMarkdown(HOSTILE[2]!)));
});
