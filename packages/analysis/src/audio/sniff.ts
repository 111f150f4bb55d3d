// Format detection from content (decisions §7): the first bytes of a file say what it is,
// whatever content type or file name the client sent. The decoder is then told this container
// explicitly (DEMUXERS), so that it never picks a demuxer of its own: a file that sniffs as MP3
// is read as MP3 even when it also holds an HLS playlist or a concat script. Containers that can
// hold audio or video (ISO BMFF, Matroska/WebM, Ogg) are only sniffed here; the probe later says
// which they hold.

/** A first guess from magic bytes, before probing. */
export type SniffedFormat =
  | { family: 'wav' }
  | { family: 'probe'; format: ProbeFormat }
  | { family: 'text' }
  | { family: 'unknown' };

/** Formats whose streams and duration the sandboxed probe reads. */
export type ProbeFormat = 'flac' | 'mp3' | 'aac' | 'ogg' | 'mp4' | 'm4a' | 'mov' | 'webm' | 'mkv';

/** The one demuxer each sniffed format is read with (ffmpeg's names). */
export const DEMUXERS: Record<ProbeFormat, string> = {
  flac: 'flac',
  mp3: 'mp3',
  aac: 'aac',
  ogg: 'ogg',
  mp4: 'mov',
  m4a: 'mov',
  mov: 'mov',
  webm: 'matroska',
  mkv: 'matroska',
};

/** How many leading bytes of an upload are kept for sniffing. */
export const SNIFF_BYTES = 4096;

const ascii = (buf: Buffer, start: number, end: number): string => buf.subarray(start, end).toString('latin1');

export function sniffFormat(head: Buffer): SniffedFormat {
  if (head.length >= 12 && ascii(head, 0, 4) === 'RIFF' && ascii(head, 8, 12) === 'WAVE') return { family: 'wav' };
  if (head.length >= 4 && ascii(head, 0, 4) === 'fLaC') return { family: 'probe', format: 'flac' };
  if (head.length >= 4 && ascii(head, 0, 4) === 'OggS') return { family: 'probe', format: 'ogg' };
  // ID3v2 tags precede MP3 frames (and, rarely, ADTS AAC: the probe then names the codec).
  if (head.length >= 3 && ascii(head, 0, 3) === 'ID3') return { family: 'probe', format: 'mp3' };
  if (head.length >= 4 && head[0] === 0x1a && head[1] === 0x45 && head[2] === 0xdf && head[3] === 0xa3) {
    // EBML header: its DocType element names the flavour within the first few dozen bytes.
    return { family: 'probe', format: ascii(head, 0, Math.min(head.length, 64)).includes('webm') ? 'webm' : 'mkv' };
  }
  const iso = sniffIsoBmff(head);
  if (iso) return { family: 'probe', format: iso };
  const frame = sniffMpegFrame(head);
  if (frame) return { family: 'probe', format: frame };
  if (looksLikeText(head)) return { family: 'text' };
  return { family: 'unknown' };
}

/** ISO base media (MP4, M4A, MOV): an `ftyp` box first, or a QuickTime file without one. */
function sniffIsoBmff(head: Buffer): ProbeFormat | null {
  if (head.length < 12) return null;
  const box = ascii(head, 4, 8);
  if (box === 'ftyp') {
    const brand = ascii(head, 8, 12);
    if (brand === 'qt  ') return 'mov';
    if (brand === 'M4A ' || brand === 'M4B ') return 'm4a';
    return 'mp4';
  }
  // Old QuickTime files start straight with a movie, data or padding atom.
  if (['moov', 'mdat', 'wide', 'free', 'skip', 'pnot'].includes(box)) {
    const size = head.readUInt32BE(0);
    if (size === 0 || size === 1 || size >= 8) return 'mov';
  }
  return null;
}

/**
 * A bare MPEG audio frame header: 11 sync bits, then layer bits that tell MP3 (layer set) from
 * ADTS AAC (layer 00). Bitrate and sample-rate indices are checked so that random bytes that
 * happen to start with 0xFF are not taken for audio.
 */
function sniffMpegFrame(head: Buffer): ProbeFormat | null {
  if (head.length < 4) return null;
  const [b0, b1, b2] = [head[0] ?? 0, head[1] ?? 0, head[2] ?? 0];
  if (b0 !== 0xff || (b1 & 0xe0) !== 0xe0) return null;
  const layer = (b1 >> 1) & 0x3;
  if (layer === 0) {
    // ADTS: MPEG version bit pattern 1111 0xx1/0; sampling index below 13.
    if ((b1 & 0xf6) !== 0xf0) return null;
    return ((b2 >> 2) & 0xf) < 13 ? 'aac' : null;
  }
  const version = (b1 >> 3) & 0x3;
  const bitrate = b2 >> 4;
  const rate = (b2 >> 2) & 0x3;
  if (version === 1 || bitrate === 0 || bitrate === 15 || rate === 3) return null;
  return 'mp3';
}

/**
 * Text as transcripts are: no NUL and no other control bytes except tab, CR, LF and form feed,
 * valid UTF-8 (a sequence cut by the end of the sniffed window is allowed).
 */
export function looksLikeText(head: Buffer): boolean {
  if (head.length === 0) return false;
  for (const b of head) {
    if (b < 0x20 && b !== 0x09 && b !== 0x0a && b !== 0x0d && b !== 0x0c) return false;
    if (b === 0x7f) return false;
  }
  try {
    new TextDecoder('utf-8', { fatal: true }).decode(trimPartialUtf8(head));
    return true;
  } catch {
    return false;
  }
}

/** Drops a trailing UTF-8 sequence that the sniffing window cut in half. */
function trimPartialUtf8(buf: Buffer): Buffer {
  for (let back = 1; back <= Math.min(3, buf.length); back++) {
    const b = buf[buf.length - back] ?? 0;
    if ((b & 0xc0) === 0x80) continue; // continuation byte: keep looking for the lead byte
    if ((b & 0xc0) === 0xc0) {
      const need = b >= 0xf0 ? 4 : b >= 0xe0 ? 3 : 2;
      return need > back ? buf.subarray(0, buf.length - back) : buf;
    }
    return buf;
  }
  return buf;
}
