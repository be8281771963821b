/**
 * Answers of the alerting routes (src/api/alerts/routes.ts). Every route declares its response
 * schema, so the types come from the generated client.
 */
import type { paths } from '@sightline/api-client';

export type AlertChannel =
  paths['/api/alert-channels']['get']['responses'][200]['content']['application/json']['items'][number];
export type CreatedChannel = paths['/api/alert-channels']['post']['responses'][201]['content']['application/json'];
export type TestOutcome =
  paths['/api/alert-channels/{id}/test']['post']['responses'][200]['content']['application/json'];
export type AlertRule =
  paths['/api/alert-rules']['get']['responses'][200]['content']['application/json']['items'][number];
export type AlertEvent =
  paths['/api/alert-events']['get']['responses'][200]['content']['application/json']['items'][number];

export type ChannelKind = AlertChannel['kind'];
export type RuleKind = AlertRule['kind'];

export const CHANNEL_KINDS: ReadonlyArray<{ value: ChannelKind; label: string }> = [
  { value: 'webhook', label: 'Webhook' },
  { value: 'slack', label: 'Slack' },
  { value: 'email', label: 'E-mail' },
];

export const RULE_KINDS: ReadonlyArray<{ value: RuleKind; label: string }> = [
  { value: 'new_issue', label: 'New issue' },
  { value: 'regression', label: 'Regression' },
  { value: 'issue_frequency', label: 'Issue frequency' },
  { value: 'endpoint_latency', label: 'Endpoint latency' },
  { value: 'error_rate', label: 'Error rate' },
  { value: 'metric_threshold', label: 'Metric threshold' },
  { value: 'log_match', label: 'Log match' },
];

export const ruleKindLabel = (kind: RuleKind): string => RULE_KINDS.find((k) => k.value === kind)?.label ?? kind;
export const channelKindLabel = (kind: ChannelKind): string =>
  CHANNEL_KINDS.find((k) => k.value === kind)?.label ?? kind;

export const canWrite = (role: string | undefined): boolean => role === 'admin' || role === 'write';
