/** The clients' stack-trace reader (packages/stack-frames, the issue page's and `issues show`'s) on each layout the ingest accepts. */
import { describe, expect, it } from 'vitest';
import { mappedFramesOf, parseStackTrace, stackBlocks, type StackFrame } from '@sightline/stack-frames';

const frames = (text: string): StackFrame[] =>
  parseStackTrace(text).entries.flatMap((entry) => (entry.kind === 'frame' ? [entry.frame] : []));
const shape = (frame: StackFrame) => ({
  function: frame.function,
  file: frame.file,
  line: frame.line,
  column: frame.column,
  inApp: frame.inApp,
});

describe('parseStackTrace', () => {
  it('reads Node/V8 frames and sets node_modules, <anonymous> and node: internals apart', () => {
    const text = [
      'Error: connect ETIMEDOUT 10.0.3.12:5432',
      '    at TCPConnectWrap.afterConnect [as oncomplete] (node:net:1555:16)',
      '    at async Pool.query (/srv/shop/node_modules/pg-pool/index.js:45:11)',
      '    at Array.map (<anonymous>)',
      '    at async findOrder (/srv/shop/src/orders.js:12:17)',
      '    at /srv/shop/src/index.js:3:9',
    ].join('\n');
    const parsed = parseStackTrace(text);
    expect(parsed.title).toBe('Error: connect ETIMEDOUT 10.0.3.12:5432');
    expect(parsed.frameCount).toBe(5);
    expect(frames(text).map(shape)).toEqual([
      {
        function: 'TCPConnectWrap.afterConnect [as oncomplete]',
        file: 'node:net',
        line: 1555,
        column: 16,
        inApp: false,
      },
      {
        function: 'async Pool.query',
        file: '/srv/shop/node_modules/pg-pool/index.js',
        line: 45,
        column: 11,
        inApp: false,
      },
      { function: 'Array.map', file: '<anonymous>', line: null, column: null, inApp: false },
      { function: 'async findOrder', file: '/srv/shop/src/orders.js', line: 12, column: 17, inApp: true },
      { function: null, file: '/srv/shop/src/index.js', line: 3, column: 9, inApp: true },
    ]);
  });

  it('reads browser frames: Chromium URLs and Firefox/Safari fn@url', () => {
    const text =
      "TypeError: Cannot read properties of null (reading 'focus')\n    at openCart (https://shop.example/assets/app-3f9a.js:1:48211)\nrender@https://shop.example/assets/app.js:2:300\n@https://shop.example/node_modules/.vite/deps/react.js:10:5";
    expect(frames(text).map(shape)).toEqual([
      { function: 'openCart', file: 'https://shop.example/assets/app-3f9a.js', line: 1, column: 48211, inApp: true },
      { function: 'render', file: 'https://shop.example/assets/app.js', line: 2, column: 300, inApp: true },
      {
        function: null,
        file: 'https://shop.example/node_modules/.vite/deps/react.js',
        line: 10,
        column: 5,
        inApp: false,
      },
    ]);
  });

  it('reads Python frames with their source lines, site-packages as library', () => {
    const text = [
      'Traceback (most recent call last):',
      '  File "/app/shop/views.py", line 42, in checkout',
      '    total = cart_total(cart)',
      '  File "/usr/lib/python3.12/site-packages/django/core/handlers/base.py", line 197, in _get_response',
      '    response = wrapped_callback(request, *callback_args, **callback_kwargs)',
      "KeyError: 'price'",
    ].join('\n');
    const parsed = parseStackTrace(text);
    expect(frames(text).map(shape)).toEqual([
      { function: 'checkout', file: '/app/shop/views.py', line: 42, column: null, inApp: true },
      {
        function: '_get_response',
        file: '/usr/lib/python3.12/site-packages/django/core/handlers/base.py',
        line: 197,
        column: null,
        inApp: false,
      },
    ]);
    expect(frames(text)[0]!.source).toBe('total = cart_total(cart)');
    expect(parsed.entries.at(-1)).toEqual({ kind: 'text', text: "KeyError: 'price'" });
  });

  it('reads Java frames (JDK and framework packages are library) and keeps Caused by as text', () => {
    const text = [
      'java.lang.IllegalStateException: no cart',
      '\tat com.shop.CartService.total(CartService.java:88)',
      '\tat java.base/java.lang.Thread.run(Thread.java:829)',
      '\tat jdk.internal.reflect.NativeMethodAccessorImpl.invoke0(Native Method)',
      'Caused by: java.lang.NullPointerException',
      '\t... 12 more',
    ].join('\n');
    expect(frames(text).map(shape)).toEqual([
      { function: 'com.shop.CartService.total', file: 'CartService.java', line: 88, column: null, inApp: true },
      { function: 'java.base/java.lang.Thread.run', file: 'Thread.java', line: 829, column: null, inApp: false },
      {
        function: 'jdk.internal.reflect.NativeMethodAccessorImpl.invoke0',
        file: 'Native Method',
        line: null,
        column: null,
        inApp: false,
      },
    ]);
    expect(
      parseStackTrace(text)
        .entries.filter((e) => e.kind === 'text')
        .map((e) => (e.kind === 'text' ? e.text.trim() : '')),
    ).toEqual(['java.lang.IllegalStateException: no cart', 'Caused by: java.lang.NullPointerException', '... 12 more']);
  });

  it('reads .NET frames with and without their source file', () => {
    const text =
      'System.InvalidOperationException: boom\n   at Shop.Cart.Total(Int32 items) in C:\\src\\Shop\\Cart.cs:line 42\n   at System.Linq.Enumerable.Sum(IEnumerable`1 source)';
    expect(frames(text).map(shape)).toEqual([
      { function: 'Shop.Cart.Total(Int32 items)', file: 'C:\\src\\Shop\\Cart.cs', line: 42, column: null, inApp: true },
      {
        function: 'System.Linq.Enumerable.Sum(IEnumerable`1 source)',
        file: null,
        line: null,
        column: null,
        inApp: false,
      },
    ]);
  });

  it('reads the reference client and Go layouts: fn() then an indented path:line', () => {
    const text =
      'TypeError: cannot read id\ncheckout()\n    /app/checkout.go:42\nmain.main()\n\t/root/go/pkg/mod/example.com/lib@v1.2.3/run.go:12 +0x1d\n';
    expect(frames(text).map(shape)).toEqual([
      { function: 'checkout()', file: '/app/checkout.go', line: 42, column: null, inApp: true },
      {
        function: 'main.main()',
        file: '/root/go/pkg/mod/example.com/lib@v1.2.3/run.go',
        line: 12,
        column: null,
        inApp: false,
      },
    ]);
  });

  it('reads Dart/Flutter frames: dart: and package:flutter are library, VM snapshot frames too', () => {
    const text = [
      'Bad state: no element',
      '#0      clamp_rate (package:shop_app/src/pricing.dart:9:12)',
      '#1      _rootRun (dart:async/zone.dart:1399:13)',
      '#2      StatelessElement.build (package:flutter/src/widgets/framework.dart:4827:28)',
      '<asynchronous suspension>',
      '#3 abs 0000007a1c5ee6ab virt 000000000030a6ab _kDartIsolateSnapshotInstructions+0x1e1dab',
      '#4 abs 0000007a1c5ee6ab _kDartVmSnapshotInstructions+0x1',
    ].join('\n');
    expect(frames(text).map(shape)).toEqual([
      { function: 'clamp_rate', file: 'package:shop_app/src/pricing.dart', line: 9, column: 12, inApp: true },
      { function: '_rootRun', file: 'dart:async/zone.dart', line: 1399, column: 13, inApp: false },
      {
        function: 'StatelessElement.build',
        file: 'package:flutter/src/widgets/framework.dart',
        line: 4827,
        column: 28,
        inApp: false,
      },
      { function: '_kDartIsolateSnapshotInstructions+0x1e1dab', file: null, line: null, column: null, inApp: true },
      { function: '_kDartVmSnapshotInstructions+0x1', file: null, line: null, column: null, inApp: false },
    ]);
  });

  it('reads iOS frames: raw image offsets, symbolicated frames and crash-report lines, system frameworks as library', () => {
    const text = [
      'Fatal Signal SIGSEGV (11)',
      '*** *** ***',
      '#00 fb1f31bf712f3200b388cd91c37e2d71 0x41a3 ShopApp',
      '#0 clamp_rate (/Users/ci/ShopApp/lib/pricing.c:9:12)',
      '1   UIKitCore                     0x00000001a1b2c3d4 -[UIApplication sendEvent:] + 312',
      '2   libsystem_kernel.dylib        0x00000001a1b2c3d4 __pthread_kill + 8',
      '3   ShopApp                       0x0000000100004000 main + 40',
    ].join('\n');
    expect(frames(text).map(shape)).toEqual([
      { function: '0x41a3', file: 'ShopApp', line: null, column: null, inApp: true },
      { function: 'clamp_rate', file: '/Users/ci/ShopApp/lib/pricing.c', line: 9, column: 12, inApp: true },
      { function: '-[UIApplication sendEvent:]', file: 'UIKitCore', line: null, column: null, inApp: false },
      { function: '__pthread_kill', file: 'libsystem_kernel.dylib', line: null, column: null, inApp: false },
      { function: 'main', file: 'ShopApp', line: null, column: null, inApp: true },
    ]);
  });

  it('reads Ruby frames, gems as library', () => {
    const text =
      "NoMethodError: undefined method\napp/models/cart.rb:12:in 'total'\n/usr/lib/ruby/gems/3.3.0/gems/rack-3.0/lib/rack.rb:5:in `call'";
    expect(frames(text).map(shape)).toEqual([
      { function: 'total', file: 'app/models/cart.rb', line: 12, column: null, inApp: true },
      {
        function: 'call',
        file: '/usr/lib/ruby/gems/3.3.0/gems/rack-3.0/lib/rack.rb',
        line: 5,
        column: null,
        inApp: false,
      },
    ]);
  });

  it('keeps a message without frames as its text, and does not read an over-long line as a frame', () => {
    expect(parseStackTrace('Payment provider answered slowly (over 2 s)')).toEqual({
      title: 'Payment provider answered slowly (over 2 s)',
      entries: [{ kind: 'text', text: 'Payment provider answered slowly (over 2 s)' }],
      frameCount: 0,
    });
    const long = `Error: x\n    at f (/app/${'a'.repeat(5000)}.js:1:1)`;
    expect(parseStackTrace(long).frameCount).toBe(0);
  });
});

describe('stackBlocks', () => {
  it('groups runs of library frames so each run collapses behind one toggle', () => {
    const text =
      'Error: x\n    at a (/app/a.js:1:1)\n    at b (node:internal/x:1:1)\n    at c (/app/node_modules/c.js:1:1)\n    at d (/app/d.js:1:1)\n    at e (node:events:1:1)';
    const blocks = stackBlocks(parseStackTrace(text).entries);
    expect(
      blocks.map((block) => (block.kind === 'library' ? `library×${block.frames.length}` : block.entry.kind)),
    ).toEqual(['text', 'frame', 'library×2', 'frame', 'library×1']);
  });
});

describe('source-mapped frames', () => {
  const text = [
    'Error: unknown currency JPY',
    '    at formatPrice (src/format.ts:6:11)',
    '    at https://shop.example.com/index.html:5:3',
  ].join('\n');
  const attributes = {
    'sightline.frames': JSON.stringify([
      {
        line: 1,
        source: 'src/format.ts',
        lineNumber: 6,
        column: 11,
        function: 'formatPrice',
        context: { start: 4, lines: ['a', 'b', 'throw', 'c'] },
      },
    ]),
  };

  it('marks the frames the service mapped, with their source context, and leaves the others unmarked', () => {
    const parsed = frames(text);
    const marked = parseStackTrace(text, mappedFramesOf(attributes)).entries.flatMap((entry) =>
      entry.kind === 'frame' ? [entry.frame] : [],
    );
    expect(parsed.every((frame) => frame.mapped === undefined)).toBe(true);
    expect(
      marked.map((frame) => frame.mapped?.context?.lines[frame.mapped.lineNumber - frame.mapped.context.start] ?? null),
    ).toEqual(['throw', null]);
  });

  it('ignores a malformed attribute rather than failing the page', () => {
    for (const bad of [
      'not json',
      '{}',
      '[null, 1, {"line": "x"}]',
      '[{"line": 1, "source": "a", "context": {"start": 1, "lines": [1]}}]',
    ]) {
      const map = mappedFramesOf({ 'sightline.frames': bad });
      expect([...map.values()].every((info) => info.context === undefined)).toBe(true);
    }
    expect(mappedFramesOf(undefined).size).toBe(0);
  });
});
