/**
 * A user agent string as a person reads it: "Chrome 131 on Linux", for replayed sessions and for
 * sign-ins (Account settings). Order matters: Edge, Opera and Samsung Internet also say "Chrome",
 * Chrome also says "Safari", so the specific names go first.
 */
const BROWSERS: Array<[RegExp, string]> = [
  [/Edg(?:e|A|iOS)?\/(\d+)/, 'Edge'],
  [/(?:OPR|Opera)\/(\d+)/, 'Opera'],
  [/SamsungBrowser\/(\d+)/, 'Samsung Internet'],
  [/Firefox\/(\d+)/, 'Firefox'],
  [/FxiOS\/(\d+)/, 'Firefox'],
  [/CriOS\/(\d+)/, 'Chrome'],
  [/HeadlessChrome\/(\d+)/, 'Headless Chrome'],
  [/Chrom(?:e|ium)\/(\d+)/, 'Chrome'],
  [/Version\/(\d+)(?:\.\d+)*.*Safari\//, 'Safari'],
];

const SYSTEMS: Array<[RegExp, string]> = [
  [/Windows NT/, 'Windows'],
  [/iPhone|iPad|iPod/, 'iOS'],
  [/Mac OS X|Macintosh/, 'macOS'],
  [/Android/, 'Android'],
  [/CrOS/, 'ChromeOS'],
  [/Linux|X11/, 'Linux'],
];

export interface HumanUserAgent {
  browser: string | null;
  system: string | null;
  /** "Chrome 131 on Linux", or the raw string when nothing is recognized. */
  label: string;
}

export function humanizeUserAgent(userAgent: string | null | undefined): HumanUserAgent {
  if (!userAgent) return { browser: null, system: null, label: '—' };
  let browser: string | null = null;
  for (const [pattern, name] of BROWSERS) {
    const match = pattern.exec(userAgent);
    if (match) {
      browser = `${name} ${match[1]}`;
      break;
    }
  }
  const system = SYSTEMS.find(([pattern]) => pattern.test(userAgent))?.[1] ?? null;
  const label = browser && system ? `${browser} on ${system}` : (browser ?? system ?? userAgent);
  return { browser, system, label };
}
