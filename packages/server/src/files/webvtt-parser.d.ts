// Types for the untyped `webvtt-parser` package (MIT, a dev dependency: the tests validate the
// WebVTT export with it), the parts we call.
declare module 'webvtt-parser' {
  interface ParsedCue {
    id: string;
    startTime: number;
    endTime: number;
    text: string;
    tree: { children: { type: string; name?: string; value?: string; children?: { type: string; value?: string }[] }[] };
  }
  interface Parser {
    parse(input: string, mode?: 'metadata' | 'chapters'): { cues: ParsedCue[]; errors: { message: string; line: number; col: number }[] };
  }
  // A CommonJS module: Node gives its exports as the default import.
  const webvtt: { WebVTTParser: new () => Parser };
  export default webvtt;
}
