import { test } from 'node:test';
import assert from 'node:assert/strict';
import { linkSpeakers, voiceprintSimilarity } from './voiceprint.ts';

test('linkSpeakers links the most similar pairs one-to-one and only above the threshold', () => {
  const existing = [
    { entityId: 'a', voiceprint: [1, 0, 0] },
    { entityId: 'b', voiceprint: [0, 1, 0] },
  ];
  // Both new speakers resemble "a"; the closer one gets it, the other gets nothing (not "a" twice).
  const out = linkSpeakers([[0.9, 0.1, 0], [0.99, 0.01, 0], [0, 0, 1]], existing, 0.8);
  assert.deepEqual(out, [null, 'a', null]);
  assert.deepEqual(linkSpeakers([[0.1, 1, 0]], existing, 0.8), ['b']);
  assert.deepEqual(linkSpeakers([[0.1, 1, 0]], existing, 0.999), [null]);
  assert.deepEqual(linkSpeakers([], existing), []);
  // Voiceprints of another length (another extractor) never link.
  assert.deepEqual(linkSpeakers([[1, 0]], existing, 0), [null]);
});

test('voiceprint similarity is the cosine', () => {
  assert.equal(voiceprintSimilarity([1, 0], [0, 1]), 0);
  assert.ok(Math.abs(voiceprintSimilarity([1, 2], [2, 4]) - 1) < 1e-12);
  assert.ok(Math.abs(voiceprintSimilarity([1, 0], [-1, 0]) + 1) < 1e-12);
});
