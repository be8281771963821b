import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { exceptionHash, normalizeStackTrace } from './grouping.js';

/**
 * One language's stack trace with its variations: `sameGroup` traces must hash like `base`,
 * `otherGroup` traces must not.
 */
interface GroupingCase {
  language: string;
  base: string;
  sameGroup: Record<string, string>;
  otherGroup: Record<string, string>;
}

/** The reference Go client: `Type: message`, then `funcName()` and `    /path/file.go:line` per frame. */
function goReference({
  type = '*errors.errorString',
  message = 'order 1842 not found',
  checkout = '/home/alice/src/shop',
  handler = 'createOrder',
  line = 57,
  ginVersion = 'v1.9.1',
} = {}): string {
  return [
    `${type}: ${message}`,
    `(*OrderHandler).${handler}()`,
    `    ${checkout}/internal/api/orders.go:${line}`,
    '(*Context).Next()',
    `    /home/alice/go/pkg/mod/github.com/gin-gonic/gin@${ginVersion}/context.go:174`,
    '(*Engine).ServeHTTP()',
    `    /home/alice/go/pkg/mod/github.com/gin-gonic/gin@${ginVersion}/gin.go:589`,
    'serverHandler.ServeHTTP()',
    '    /usr/local/go/src/net/http/server.go:3137',
    '',
  ].join('\n');
}

/** A recovered Go panic as the runtime prints it (`-trimpath` build: module paths, not directories). */
function goPanic({
  type = 'panic',
  message = 'runtime error: invalid memory address or nil pointer dereference',
  signalAddress = '0x18',
  goroutine = 42,
  receiver = '0xc000124000',
  handler = 'CreateOrder',
  line = 88,
  ginVersion = 'v1.9.1',
} = {}): string {
  return [
    `${type}: ${message}`,
    `[signal SIGSEGV: segmentation violation code=0x1 addr=${signalAddress} pc=0x6f1c2a]`,
    '',
    `goroutine ${goroutine} [running]:`,
    `github.com/acme/shop/internal/api.(*Handler).${handler}(${receiver}, {0x9a8f40, 0xc0003a2000})`,
    `\tgithub.com/acme/shop/internal/api/orders.go:${line} +0x1d`,
    'github.com/gin-gonic/gin.(*Context).Next(...)',
    `\tgithub.com/gin-gonic/gin@${ginVersion}/context.go:174`,
    'created by net/http.(*Server).Serve in goroutine 1',
    '\tnet/http/server.go:3285 +0x4b4',
  ].join('\n');
}

function nodeTrace({
  type = 'TypeError',
  message = "Cannot read properties of undefined (reading 'email')",
  checkout = '/home/alice/shop',
  file = 'dist/services/user.js',
  method = 'notify',
  line = 120,
} = {}): string {
  return [
    `${type}: ${message}`,
    `    at UserService.${method} (${checkout}/${file}:${line}:15)`,
    `    at async OrderController.create (${checkout}/dist/controllers/order.js:42:7)`,
    `    at async Object.handler (${checkout}/node_modules/.pnpm/fastify@4.26.2/node_modules/fastify/lib/wrapHooks.js:33:5)`,
    '    at process.processTicksAndRejections (node:internal/process/task_queues:95:5)',
  ].join('\n');
}

function pythonTrace({
  type = 'sqlalchemy.exc.NoResultFound',
  message = 'No row was found when one was required',
  checkout = '/home/alice/shop',
  python = 'python3.11',
  view = 'show_order',
  line = 42,
} = {}): string {
  return [
    'Traceback (most recent call last):',
    `  File "${checkout}/.venv/lib/${python}/site-packages/flask/app.py", line 1484, in full_dispatch_request`,
    '    rv = self.dispatch_request()',
    `  File "${checkout}/shop/views.py", line ${line}, in ${view}`,
    '    order = Order.query.filter_by(id=order_id).one()',
    `  File "${checkout}/.venv/lib/${python}/site-packages/sqlalchemy/orm/query.py", line 2870, in one`,
    '    return self._iter().one()',
    `${type}: ${message}`,
  ].join('\n');
}

function javaTrace({
  type = 'java.lang.IllegalStateException',
  message = 'Order 8f14e45f-ceea-467f-a0e5-5a6f1c2b3d4e cannot be shipped to alice@example.com',
  lambda = '$$Lambda$1234/0x0000000800c0b0a0',
  springVersion = '6.1.2',
  method = 'ship',
  line = 88,
  cause = 'java.sql.SQLTransientConnectionException',
  causeMessage = 'HikariPool-1 - Connection is not available, request timed out after 30000ms.',
} = {}): string {
  return [
    `${type}: ${message}`,
    `\tat com.acme.shop.orders.OrderService.${method}(OrderService.java:${line})`,
    '\tat com.acme.shop.orders.OrderController.lambda$ship$0(OrderController.java:41)',
    `\tat com.acme.shop.orders.OrderController${lambda}.apply(Unknown Source)`,
    `\tat org.springframework.web.servlet.FrameworkServlet.service(FrameworkServlet.java:885) ~[spring-webmvc-${springVersion}.jar:${springVersion}]`,
    '\tat java.base/java.lang.Thread.run(Thread.java:1583)',
    `Caused by: ${cause}: ${causeMessage}`,
    '\tat com.zaxxer.hikari.pool.HikariPool.createTimeoutException(HikariPool.java:696)',
    '\t... 12 more',
  ].join('\n');
}

function dartTrace({
  type = 'Bad state',
  message = 'No element',
  checkout = '/home/alice/shop',
  widget = 'CartPage',
  line = 42,
  padding = '      ',
} = {}): string {
  return [
    `${type}: ${message}`,
    `#0${padding}ListBase.first (dart:collection/list.dart:58:5)`,
    `#1${padding}${widget}.build (package:shop/cart/cart_page.dart:${line}:27)`,
    `#2${padding}StatelessElement.build (package:flutter/src/widgets/framework.dart:5550:49)`,
    `#3${padding}main (file://${checkout}/bin/main.dart:10:5)`,
    '<asynchronous suspension>',
  ].join('\n');
}

function chromeTrace({
  type = 'TypeError',
  message = "Cannot read properties of null (reading 'addEventListener')",
  origin = 'https://cdn.shop.example',
  bundle = 'assets/index.3f9a1c2b.js?v=1714557600',
  fn = 'Ab',
  column = 23456,
} = {}): string {
  return [
    `${type}: ${message}`,
    `    at HTMLDocument.${fn} (${origin}/${bundle}:1:${column})`,
    `    at ${origin}/assets/vendor.77e0aa21.js:2:1034`,
  ].join('\n');
}

function firefoxTrace({
  type = 'TypeError',
  message = 'can\'t access property "addEventListener", el is null',
  origin = 'https://cdn.shop.example',
  bundle = 'assets/index.3f9a1c2b.js?v=1714557600',
  fn = 'Ab',
  column = 23456,
} = {}): string {
  return [
    `${type}: ${message}`,
    `${fn}@${origin}/${bundle}:1:${column}`,
    `@${origin}/assets/vendor.77e0aa21.js:2:1034`,
  ].join('\n');
}

const cases: GroupingCase[] = [
  {
    language: 'Go (reference client layout)',
    base: goReference(),
    sameGroup: {
      'different message': goReference({ message: 'order 77 not found' }),
      'uuid, e-mail and ip:port in the message': goReference({
        message: 'order 1b4e28ba-2fa1-11d2-883f-0016d3cca427 of bob@example.org via 10.0.0.7:5432',
      }),
      'different checkout directory': goReference({ checkout: '/srv/build/workspace/shop' }),
      'different module version': goReference({ ginVersion: 'v1.10.0' }),
      'CRLF line ends and trailing blanks': goReference().replaceAll('\n', '  \r\n'),
    },
    otherGroup: {
      'different error type': goReference({ type: '*fmt.wrapError' }),
      'different function': goReference({ handler: 'cancelOrder' }),
      'different line': goReference({ line: 58 }),
    },
  },
  {
    language: 'Go (runtime panic with goroutine header)',
    base: goPanic(),
    sameGroup: {
      'different goroutine number': goPanic({ goroutine: 7 }),
      'different hex addresses in frames and message': goPanic({ receiver: '0xc0001f8000', signalAddress: '0x0' }),
      'different module version': goPanic({ ginVersion: 'v0.0.0-20240101120000-abcdef123456' }),
    },
    otherGroup: {
      'different error type': goPanic({ type: 'fatal error', message: 'concurrent map writes' }),
      'different function': goPanic({ handler: 'CancelOrder' }),
      'different line': goPanic({ line: 90 }),
    },
  },
  {
    language: 'Node.js',
    base: nodeTrace(),
    sameGroup: {
      'different message': nodeTrace({ message: "Cannot read properties of undefined (reading 'phone')" }),
      'ip:port in the message': nodeTrace({ message: 'connect ECONNREFUSED 10.0.0.5:5432' }),
      'different checkout directory': nodeTrace({ checkout: '/var/lib/ci/builds/8812/shop' }),
    },
    otherGroup: {
      'different error type': nodeTrace({ type: 'RangeError' }),
      'different function': nodeTrace({ method: 'remind' }),
      'different line': nodeTrace({ line: 121 }),
      'source instead of compiled file': nodeTrace({ file: 'src/services/user.ts' }),
    },
  },
  {
    language: 'Python',
    base: pythonTrace(),
    sameGroup: {
      'different message': pythonTrace({ message: 'No row was found for order 1842' }),
      'different checkout directory': pythonTrace({ checkout: '/app' }),
      'different interpreter version in site-packages paths': pythonTrace({ python: 'python3.12' }),
    },
    otherGroup: {
      'different error type': pythonTrace({ type: 'sqlalchemy.exc.MultipleResultsFound' }),
      'different function': pythonTrace({ view: 'show_invoice' }),
      'different line': pythonTrace({ line: 43 }),
    },
  },
  {
    language: 'Java',
    base: javaTrace(),
    sameGroup: {
      'different message with another uuid and e-mail': javaTrace({
        message: 'Order 0e5a8c3b-91d2-4f7a-b6c1-2d3e4f5a6b7c cannot be shipped to carol@example.net',
      }),
      'different generated lambda class': javaTrace({ lambda: '$$Lambda$2871/0x0000000801a2c3d8' }),
      'different jar version': javaTrace({ springVersion: '6.1.3' }),
      'different cause message': javaTrace({ causeMessage: 'request timed out after 5000ms.' }),
    },
    otherGroup: {
      'different error type': javaTrace({ type: 'java.lang.IllegalArgumentException' }),
      'different function': javaTrace({ method: 'cancel' }),
      'different line': javaTrace({ line: 89 }),
      'different cause type': javaTrace({ cause: 'java.net.SocketTimeoutException' }),
    },
  },
  {
    language: 'Dart (symbolic)',
    base: dartTrace(),
    sameGroup: {
      'different message': dartTrace({ message: 'Too many elements' }),
      'different checkout directory': dartTrace({ checkout: '/Users/bob/dev/shop' }),
      'different frame padding': dartTrace({ padding: ' ' }),
    },
    otherGroup: {
      'different error type': dartTrace({ type: 'Invalid argument(s)' }),
      'different function': dartTrace({ widget: 'CheckoutPage' }),
      'different line': dartTrace({ line: 43 }),
    },
  },
  {
    language: 'Browser JavaScript (Chrome)',
    base: chromeTrace(),
    sameGroup: {
      'different message': chromeTrace({ message: "Cannot read properties of null (reading 'focus')" }),
      'different origin, ip and port': chromeTrace({ origin: 'http://10.0.0.5:3000' }),
      'different bundle content hash and query string': chromeTrace({
        bundle: 'assets/index.9b8c7d6e.js?v=1714999999',
      }),
    },
    otherGroup: {
      'different error type': chromeTrace({ type: 'ReferenceError' }),
      'different function': chromeTrace({ fn: 'Bc' }),
      'different column': chromeTrace({ column: 23457 }),
      'source instead of compiled file': chromeTrace({ bundle: 'src/main.ts' }),
    },
  },
  {
    language: 'Browser JavaScript (Firefox)',
    base: firefoxTrace(),
    sameGroup: {
      'different message': firefoxTrace({ message: 'el is undefined' }),
      'different origin, ip and port': firefoxTrace({ origin: 'http://[fe80::1]:3000' }),
      'different bundle content hash and query string': firefoxTrace({ bundle: 'assets/index.9b8c7d6e.js' }),
    },
    otherGroup: {
      'different error type': firefoxTrace({ type: 'ReferenceError' }),
      'different function': firefoxTrace({ fn: 'Bc' }),
      'different column': firefoxTrace({ column: 99 }),
      'source instead of compiled file': firefoxTrace({ bundle: 'src/main.ts' }),
    },
  },
];

describe('exceptionHash of errors', () => {
  describe.each(cases)('$language', ({ base, sameGroup, otherGroup }) => {
    const baseHash = exceptionHash(base, false);

    it('is 16 lowercase hex characters', () => {
      expect(baseHash).toMatch(/^[0-9a-f]{16}$/);
    });

    it.each(Object.entries(sameGroup))('groups together: %s', (_variation, trace) => {
      expect(exceptionHash(trace, false)).toBe(baseHash);
    });

    it.each(Object.entries(otherGroup))('groups apart: %s', (_variation, trace) => {
      expect(exceptionHash(trace, false)).not.toBe(baseHash);
    });
  });
});

describe('exceptionHash of messages', () => {
  const message = 'Payment provider answered 502 for order 1842 (alice@example.com)';

  it('is the first 16 hex characters of the SHA-256 of the raw text', () => {
    const expected = createHash('sha256').update(message).digest('hex').slice(0, 16);
    expect(exceptionHash(message, true)).toBe(expected);
  });

  it('is not normalized: one changed character changes the hash', () => {
    expect(exceptionHash(message.replace('1842', '1843'), true)).not.toBe(exceptionHash(message, true));
    expect(exceptionHash(`${message} `, true)).not.toBe(exceptionHash(message, true));
  });

  it('differs from the hash of the same text as an error', () => {
    expect(exceptionHash(message, true)).not.toBe(exceptionHash(message, false));
  });

  it('hashes UTF-8', () => {
    const text = 'Zahlung fehlgeschlagen: Überweisung ✗';
    expect(exceptionHash(text, true)).toBe(createHash('sha256').update(text, 'utf8').digest('hex').slice(0, 16));
  });
});

describe('normalizeStackTrace', () => {
  it.each([
    ['keeps the error type of the first line', 'ValueError: bad input 42', 'ValueError'],
    ['keeps a first line without a message', 'java.lang.NullPointerException', 'java.lang.NullPointerException'],
    [
      'drops the trailing colon of a header line',
      'Traceback (most recent call last):',
      'Traceback (most recent call last)',
    ],
    [
      'drops message continuation lines',
      'Error: Command failed\nfatal: not a git repository\n    at run (x.js:1:2)',
      'Error\nat run (x.js:1:2)',
    ],
    [
      'keeps the type of a cause and drops its message',
      'E: a\n\tat f(F.java:1)\nCaused by: x.IOError: disk full\nmore text\n\tat g(G.java:2)',
      'E\nat f(F.java:1)\nCaused by: x.IOError\nat g(G.java:2)',
    ],
    [
      'trims lines, drops blank ones and collapses blank runs',
      'E: m\n\n   at  f \t(x.js:1:2)   \n\n',
      'E\nat f (x.js:1:2)',
    ],
  ])('%s', (_rule, input, expected) => {
    expect(normalizeStackTrace(input)).toBe(expected);
  });

  // Frame rules: each input follows the first line `E: m`, which normalizes to `E`.
  it.each([
    ['reduces Unix paths to the file name', 'f()\n    /home/a/app/x.go:12', 'f()\nx.go:12'],
    ['reduces home-relative paths to the file name', 'at f (~/app/lib/x.js:3:4)', 'at f (x.js:3:4)'],
    [
      'reduces Windows paths to the file name',
      '  File "C:\\Users\\bob\\app\\x.py", line 3, in f',
      'File "x.py", line 3, in f',
    ],
    ['reduces URLs to the file name', 'at f (https://cdn.example.com:8443/a/b/app.js:1:2)', 'at f (app.js:1:2)'],
    ['reduces file URLs to the file name', 'at file:///srv/app/main.mjs:10:5', 'at main.mjs:10:5'],
    [
      'keeps relative paths and package URIs',
      'at f (src/x.ts:1:2)\n#1 g (package:app/y.dart:3:4)',
      'at f (src/x.ts:1:2)\n#1 g (package:app/y.dart:3:4)',
    ],
    [
      'keeps node: internals',
      'at f (node:internal/process/task_queues:95:5)',
      'at f (node:internal/process/task_queues:95:5)',
    ],
    ['drops query strings before the line', 'f@https://x.example/app.js?v=3&t=9:1:2', 'f@app.js:1:2'],
    ['removes Go module versions', 'f()\n    github.com/a/b@v1.2.3-rc.1/c.go:4', 'f()\ngithub.com/a/b/c.go:4'],
    [
      'removes Java module versions',
      '\tat java.base@17.0.2/java.lang.Thread.run(Thread.java:833)',
      'at java.base/java.lang.Thread.run(Thread.java:833)',
    ],
    ['removes Java packaging data', '\tat a.B.c(B.java:9) ~[b-1.2.jar:1.2]', 'at a.B.c(B.java:9)'],
    ['replaces UUIDs', 'at job 1B4E28BA-2FA1-11D2-883F-0016D3CCA427 (j.js:1:2)', 'at job <uuid> (j.js:1:2)'],
    [
      'replaces e-mail addresses',
      'at notify alice.b+tag@mail.example.co.uk (n.js:1:2)',
      'at notify <email> (n.js:1:2)',
    ],
    ['keeps Firefox frames without a scheme', 'f@app.bundle.js:1:2', 'f@app.bundle.js:1:2'],
    ['replaces IPv4 addresses with their port', 'at dial 192.168.1.20:6379 (d.js:1:2)', 'at dial <ip> (d.js:1:2)'],
    [
      'replaces IPv6 addresses',
      'at dial 2001:db8::8a2e:370:7334 and fe80::1 (d.js:1:2)',
      'at dial <ip> and <ip> (d.js:1:2)',
    ],
    ['leaves C++ and Rust paths alone', 'at std::vector::at (v.cc:1:2)', 'at std::vector::at (v.cc:1:2)'],
    [
      'replaces hex addresses',
      'main.f(0xc000124000, 0x1f)\n\tmain.go:3 +0x1d',
      'main.f(<hex>, <hex>)\nmain.go:3 +<hex>',
    ],
    [
      'replaces bare hex of 8+ digits',
      '#00 abs 000000723d8f8a1b virt 00000000001a8a1b _kDartIsolateSnapshotInstructions+0x1a1b2b',
      '#00 abs <hex> virt <hex> _kDartIsolateSnapshotInstructions+<hex>',
    ],
    [
      'replaces goroutine numbers',
      'goroutine 7 [running]:\ncreated by main.run in goroutine 1',
      'goroutine <num> [running]:\ncreated by main.run in goroutine <num>',
    ],
    [
      'replaces large numbers but not line and column numbers',
      'at Task-918273 (t.js:12345:67890)\n  File "t.py", line 12345, in f',
      'at Task-<num> (t.js:12345:67890)\nFile "t.py", line 12345, in f',
    ],
    ['keeps small numbers', 'at retry 3 of 5 (r.js:1:2)', 'at retry 3 of 5 (r.js:1:2)'],
  ])('%s', (_rule, frames, expected) => {
    expect(normalizeStackTrace(`E: m\n${frames}`)).toBe(`E\n${expected}`);
  });

  it('answers an empty string for an empty trace', () => {
    expect(normalizeStackTrace('')).toBe('');
    expect(normalizeStackTrace(' \n\t\n')).toBe('');
  });

  it('stays linear on a long run of word characters', () => {
    const trace = `E: m\nat ${'a'.repeat(200_000)}@ (x.js:1:2)`;
    expect(normalizeStackTrace(trace)).toBe(`E\nat ${'a'.repeat(200_000)}@ (x.js:1:2)`);
  });
});
