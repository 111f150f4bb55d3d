// The measurements of a media or an entity as JSON or as the service's CSV file: one reader for
// both resources, which answer the same two ways (`?format=csv`).
import type { HttpClient } from '../core/http.ts';
import { endpoints, pathFor } from '../endpoints.ts';
import type { RequestOptions } from '../common-types.ts';
import type { MetricsParams } from '../measure-types.ts';

/**
 * `metrics(id, options)` came first, so the second argument is the params only when it names a
 * format (RequestOptions has no `format`), as openai-node tells its optional query from options.
 */
export function metricsArgs(params: MetricsParams | RequestOptions | undefined, options: RequestOptions | undefined): [MetricsParams, RequestOptions | undefined] {
  return params !== undefined && 'format' in params ? [params, options] : [{}, (params as RequestOptions | undefined) ?? options];
}

export async function readMetrics(
  http: HttpClient,
  name: 'files.metrics' | 'entities.metrics',
  id: string,
  params: MetricsParams,
  options: RequestOptions | undefined,
): Promise<unknown> {
  const route = pathFor(name, { id });
  if ((params.format ?? 'json') === 'json') return http.request({ ...route, options });
  const res = await http.send({
    ...route,
    query: { format: params.format },
    options: { ...options, headers: { Accept: endpoints[name].text, ...options?.headers } },
  });
  return res.text();
}
