/**
 * Items a request carried that were not stored, as OTLP's partial_success reports them: a count
 * and an error message. Distinct reasons are kept, a few of them, so one bad exporter cannot grow
 * the response without bound.
 */
export interface Rejections {
  count: number;
  messages: string[];
}

const MAX_MESSAGES = 8;

export function reject(rejections: Rejections, message: string, count = 1): void {
  rejections.count += count;
  if (rejections.messages.length < MAX_MESSAGES && !rejections.messages.includes(message))
    rejections.messages.push(message);
}
