// C0 and C1 control characters (U+0000–U+001F, U+007F–U+009F) in the labels and names a client
// writes: a terminal that prints them obeys them (ESC starts an escape sequence, OSC 52 writes
// the clipboard, CR overwrites the line), and the CLI and the diarization exports print labels
// (issue 41, finding 9). Labels and names are refused with them at input; file names and
// transcript speaker names, which come from other programs, are stripped of them.
/* eslint-disable no-control-regex */
const CONTROLS = /[\u0000-\u001f\u007f-\u009f]/g;
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/;
/** The same, but keeping tab and line feed (free text over several lines). */
const CONTROLS_BUT_TAB_LF = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g;
/* eslint-enable no-control-regex */

/** JSON Schema `pattern` of a string without control characters (Ajv compiles it with `u`). */
export const NO_CONTROLS_PATTERN = '^[^\\u0000-\\u001f\\u007f-\\u009f]*$';
export const NO_CONTROLS_MESSAGE = 'must not contain control characters (U+0000 to U+001F, U+007F to U+009F)';

export function hasControls(text: string): boolean {
  return CONTROL.test(text);
}

export function stripControls(text: string): string {
  return text.replace(CONTROLS, '');
}

/** Free text (a cue's words): controls removed but tabs and line breaks (CR LF as LF). */
export function stripControlsInText(text: string): string {
  return text.replace(/\r\n?/g, '\n').replace(CONTROLS_BUT_TAB_LF, '');
}
