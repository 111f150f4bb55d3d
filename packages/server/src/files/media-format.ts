// Format detection from content lives with the decoder in @rapport/analysis, so that the
// container the upload is accepted as is the one it is decoded as.
export { sniffFormat, looksLikeText, SNIFF_BYTES, type SniffedFormat, type ProbeFormat } from '@rapport/analysis';
