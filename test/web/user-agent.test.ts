/** User-Agent strings as people read them (web/src/lib/user-agent.ts), on strings real clients send. */
import { describe, expect, it } from 'vitest';
import { humanizeUserAgent } from '../../web/src/lib/user-agent.js';

describe('humanizeUserAgent', () => {
  it.each([
    [
      'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36',
      'Chrome 131 on Linux',
    ],
    ['Mozilla/5.0 (Macintosh; Intel Mac OS X 14.5; rv:132.0) Gecko/20100101 Firefox/132.0', 'Firefox 132 on macOS'],
    [
      'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1',
      'Safari 17 on iOS',
    ],
    [
      'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36 Edg/131.0.2903.70',
      'Edge 131 on Windows',
    ],
    [
      'Mozilla/5.0 (Linux; Android 14; SM-S918B) AppleWebKit/537.36 (KHTML, like Gecko) SamsungBrowser/25.0 Chrome/121.0.0.0 Mobile Safari/537.36',
      'Samsung Internet 25 on Android',
    ],
  ])('%s reads "%s"', (userAgent, label) => {
    expect(humanizeUserAgent(userAgent).label).toBe(label);
  });

  it('an unrecognized string is shown as it is; none is a dash', () => {
    expect(humanizeUserAgent('sightline-cli/0.1.0 node/20.19.0 linux')).toEqual({
      browser: null,
      system: null,
      label: 'sightline-cli/0.1.0 node/20.19.0 linux',
    });
    expect(humanizeUserAgent(null).label).toBe('—');
  });
});
