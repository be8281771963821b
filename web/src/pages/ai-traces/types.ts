/**
 * Answers of `POST /api/ai-traces` and `GET /api/ai-traces/:id` (src/api/telemetry/traces.ts
 * declares both response schemas, so the generated client carries them), and the list's URL state.
 */
import type { paths } from '@sightline/api-client';

export type AiTraceListBody = paths['/api/ai-traces']['post']['requestBody']['content']['application/json'];
export type AiTraceList = paths['/api/ai-traces']['post']['responses'][200]['content']['application/json'];
export type AiTraceItem = AiTraceList['items'][number];
export type AiModelTotal = AiTraceList['perModel'] extends Array<infer T> | undefined ? T : never;
export type AiTraceDetail = paths['/api/ai-traces/{id}']['get']['responses'][200]['content']['application/json'];

export type AiSort = 'totalCost' | 'recordedAt' | 'durationMs' | 'totalTokens';

/** `/ai-traces?…` */
export interface AiTracesSearch {
  q?: string;
  model?: string;
  provider?: string;
  sort?: AiSort;
  dir?: 'asc' | 'desc';
  page?: number;
}
