// Card icons come from one set: Lucide (https://lucide.dev, ISC licence), by their Lucide names,
// so the dashboard can draw them with `lucide` / `lucide-react`. docs/analysis.md lists them.

export const ICONS = {
  member: 'users',
  score: 'gauge',
  speech: 'clock',
  turns: 'repeat',
  pace: 'activity',
  pitch: 'audio-lines',
  loudness: 'volume-2',
  turnTaking: 'timer',
  interruptions: 'zap',
  language: 'message-circle',
  responsiveness: 'reply',
  floorBalance: 'scale',
  entrainment: 'waves',
  languageStyle: 'languages',
  similarity: 'git-compare',
  complementarity: 'puzzle',
  growth: 'trending-up',
  confidence: 'shield-check',
} as const;

export type IconKey = keyof typeof ICONS;
export const ICON_NAMES: readonly string[] = Object.values(ICONS);
