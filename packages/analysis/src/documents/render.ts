// What a browser needs to show a result: the Markdown, the HTML file and the four figures, from a
// document and its evidence. Imported as `@rapport/analysis/render` (the package's main entry
// also holds the Node-only audio stages); nothing here imports a Node module.
export { renderMarkdown } from './markdown.ts';
export { renderHtml, RESULT_HTML_CSP } from './html.ts';
export type { HtmlOptions } from './html.ts';
export { documentFigures, figureFor } from './figures.ts';
export type { Figure, FigureBar, FigureGroup } from './figures.ts';
export { figureText, textBar } from './figure-text.ts';
export { figureDescription, figureSvg } from './figure-svg.ts';
export { conversationPairs, pairRecording, pairTimelineCaption, pairTimelineSvg } from './pair-timeline.ts';
export type { SharedDiarization } from './pair-timeline.ts';
export { MEASURE_COLUMNS, mediaMetricsCsv, entityMetricsCsv, measuresTable } from './metrics-csv.ts';
export { MEASURES, measureOf, csvFigure, shownFigure, semitonesToHz } from './measures.ts';
export type { Measure } from './measures.ts';
export type { MediaMeasures, EntityMeasures } from './metrics-csv.ts';
export type * from './types.ts';
