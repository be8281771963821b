/** Answers of the trace routes (they declare their response schema: the types are generated). */
import type { paths } from '@sightline/api-client';

export type TraceDetail = paths['/api/traces/{id}']['get']['responses'][200]['content']['application/json'];
export type Span = TraceDetail['spans'][number];
export type DistributedTrace =
  paths['/api/distributed-traces/{id}']['get']['responses'][200]['content']['application/json'];
export type DistributedEntity = DistributedTrace['entities'][number];
export type LogList = paths['/api/logs']['post']['responses'][200]['content']['application/json'];
export type LogRecord = LogList['items'][number];
