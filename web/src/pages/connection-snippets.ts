/**
 * Set-up snippets per language. Server-side languages use the OpenTelemetry SDK's standard
 * exporter variables (README "First steps"), so one block of variables serves them all. Flutter
 * and iOS have no Sightline package: their snippets are the few lines of the native report
 * protocol (POST /api/report, the connection string's token as Bearer) in the platform's own
 * HTTP client.
 */
export interface FrameworkSnippet {
  id: string;
  label: string;
  steps: Array<{ title: string; code: string }>;
}

export function snippetsFor(token: string, origin: string) {
  const endpoint = `${origin}/api/otel`;
  const connectionString = `${token}@${origin}/api/report`;
  const otlpEnv = [
    `OTEL_EXPORTER_OTLP_ENDPOINT=${endpoint}`,
    'OTEL_EXPORTER_OTLP_PROTOCOL=http/protobuf',
    // %20 is the space of "Bearer <token>" in the variable's URL-encoded form.
    `OTEL_EXPORTER_OTLP_HEADERS=Authorization=Bearer%20${token}`,
    'OTEL_SERVICE_NAME=my-service',
  ].join('\n');
  const exports = otlpEnv
    .split('\n')
    .map((line) => `export ${line.replace('=', "='")}'`)
    .join('\n');

  const frameworks: FrameworkSnippet[] = [
    {
      id: 'node',
      label: 'Node.js',
      steps: [
        { title: 'Install', code: 'npm install @opentelemetry/api @opentelemetry/auto-instrumentations-node' },
        {
          title: 'Run with the exporter variables',
          code: `${exports}\nnode --require @opentelemetry/auto-instrumentations-node/register app.js`,
        },
      ],
    },
    {
      id: 'python',
      label: 'Python',
      steps: [
        {
          title: 'Install',
          code: 'pip install opentelemetry-distro opentelemetry-exporter-otlp\nopentelemetry-bootstrap -a install',
        },
        { title: 'Run with the exporter variables', code: `${exports}\nopentelemetry-instrument python app.py` },
      ],
    },
    {
      id: 'go',
      label: 'Go',
      steps: [
        {
          title: 'Install',
          code: 'go get go.opentelemetry.io/otel go.opentelemetry.io/otel/sdk go.opentelemetry.io/otel/exporters/otlp/otlptrace/otlptracehttp',
        },
        {
          title: 'Set up tracing (the exporter reads the variables)',
          code: [
            'exporter, err := otlptracehttp.New(ctx)',
            'if err != nil { log.Fatal(err) }',
            'otel.SetTracerProvider(sdktrace.NewTracerProvider(sdktrace.WithBatcher(exporter)))',
          ].join('\n'),
        },
        { title: 'Run with the exporter variables', code: `${exports}\ngo run .` },
      ],
    },
    {
      id: 'java',
      label: 'Java',
      steps: [
        {
          title: 'Download the agent',
          code: 'curl -LO https://github.com/open-telemetry/opentelemetry-java-instrumentation/releases/latest/download/opentelemetry-javaagent.jar',
        },
        {
          title: 'Run with the exporter variables',
          code: `${exports}\njava -javaagent:opentelemetry-javaagent.jar -jar app.jar`,
        },
      ],
    },
    {
      id: 'dotnet',
      label: '.NET',
      steps: [
        {
          title: 'Install',
          code: 'dotnet add package OpenTelemetry.Extensions.Hosting\ndotnet add package OpenTelemetry.Instrumentation.AspNetCore\ndotnet add package OpenTelemetry.Exporter.OpenTelemetryProtocol',
        },
        {
          title: 'Program.cs (the exporter reads the variables)',
          code: 'builder.Services.AddOpenTelemetry()\n    .WithTracing(tracing => tracing.AddAspNetCoreInstrumentation().AddOtlpExporter());',
        },
        { title: 'Run with the exporter variables', code: `${exports}\ndotnet run` },
      ],
    },
    {
      id: 'browser',
      label: 'Browser',
      steps: [
        {
          title: 'Install',
          code: 'npm install @opentelemetry/sdk-trace-web @opentelemetry/exporter-trace-otlp-http @opentelemetry/instrumentation-fetch @opentelemetry/instrumentation',
        },
        {
          title: 'Set up tracing',
          code: [
            "import { WebTracerProvider, BatchSpanProcessor } from '@opentelemetry/sdk-trace-web';",
            "import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';",
            "import { FetchInstrumentation } from '@opentelemetry/instrumentation-fetch';",
            "import { registerInstrumentations } from '@opentelemetry/instrumentation';",
            '',
            'const exporter = new OTLPTraceExporter({',
            `  url: '${endpoint}/v1/traces',`,
            `  headers: { Authorization: 'Bearer ${token}' },`,
            '});',
            'const provider = new WebTracerProvider({ spanProcessors: [new BatchSpanProcessor(exporter)] });',
            'provider.register();',
            'registerInstrumentations({ instrumentations: [new FetchInstrumentation()] });',
          ].join('\n'),
        },
      ],
    },
    {
      id: 'flutter',
      label: 'Flutter',
      steps: [
        { title: 'Add the http package', code: 'flutter pub add http' },
        {
          title: 'lib/sightline.dart: send an error as a native report (gzip JSON, the token as Bearer)',
          code: [
            "import 'dart:convert';",
            "import 'dart:io' show gzip;",
            '',
            "import 'package:http/http.dart' as http;",
            '',
            '/// The connection string: the token, "@", the URL to post to.',
            `const connection = '${connectionString}';`,
            '',
            'Future<void> reportError(Object error, StackTrace stack) async {',
            "  final at = connection.indexOf('@');",
            '  final report = {',
            "    'appVersion': '1.0.0',",
            "    'serverName': '',",
            "    'collectionFrames': [",
            '      {',
            "        'stackTraces': [",
            '          {',
            // biome-ignore lint/suspicious/noTemplateCurlyInString: Dart interpolation, not ours
            "            'stackTrace': '${error.runtimeType}: $error\\n$stack',",
            "            'recordedAt': DateTime.now().toUtc().toIso8601String(),",
            "            'isMessage': false,",
            '          },',
            '        ],',
            "        'metrics': [],",
            "        'traces': [],",
            '      },',
            '    ],',
            '  };',
            '  try {',
            '    final response = await http.post(',
            '      Uri.parse(connection.substring(at + 1)),',
            '      headers: {',
            // biome-ignore lint/suspicious/noTemplateCurlyInString: Dart interpolation, not ours
            "        'Authorization': 'Bearer ${connection.substring(0, at)}',",
            "        'Content-Type': 'application/json',",
            "        'Content-Encoding': 'gzip',",
            '      },',
            '      body: gzip.encode(utf8.encode(jsonEncode(report))),',
            '    );',
            '    if (response.statusCode == 200) return;',
            '  } catch (_) {',
            '    // Offline: never throw from the error reporter.',
            '  }',
            '  // Not sent: queue the report in your app and post it again later.',
            '}',
          ].join('\n'),
        },
        {
          title: 'lib/main.dart: report uncaught errors',
          code: [
            "import 'dart:ui';",
            '',
            "import 'package:flutter/material.dart';",
            '',
            "import 'sightline.dart';",
            '',
            'void main() {',
            '  FlutterError.onError = (details) {',
            '    FlutterError.presentError(details);',
            '    reportError(details.exception, details.stack ?? StackTrace.current);',
            '  };',
            '  PlatformDispatcher.instance.onError = (error, stack) {',
            '    reportError(error, stack);',
            '    return true;',
            '  };',
            '  runApp(const MyApp());',
            '}',
          ].join('\n'),
        },
      ],
    },
    {
      id: 'ios',
      label: 'iOS',
      steps: [
        {
          title: 'Sightline.swift: send an error as a native report (JSON, the token as Bearer; no package needed)',
          code: String.raw`import Foundation

/// The connection string: the token, "@", the URL to post to.
let connection = "${connectionString}"

func reportError(_ error: Error) {
    let at = connection.firstIndex(of: "@")!
    let token = String(connection[..<at])
    let url = URL(string: String(connection[connection.index(after: at)...]))!
    let stackTrace = "\(type(of: error)): \(error.localizedDescription)\n"
        + Thread.callStackSymbols.joined(separator: "\n")
    let report: [String: Any] = [
        "appVersion": Bundle.main.infoDictionary?["CFBundleShortVersionString"] as? String ?? "",
        "serverName": "",
        "collectionFrames": [[
            "stackTraces": [[
                "stackTrace": stackTrace,
                "recordedAt": ISO8601DateFormatter().string(from: Date()),
                "isMessage": false,
            ]],
            "metrics": [],
            "traces": [],
        ]],
    ]
    var request = URLRequest(url: url)
    request.httpMethod = "POST"
    request.setValue("Bearer \(token)", forHTTPHeaderField: "Authorization")
    request.setValue("application/json", forHTTPHeaderField: "Content-Type")
    // Plain JSON: the service takes it as well as gzip, and Foundation has no gzip encoder.
    request.httpBody = try? JSONSerialization.data(withJSONObject: report)
    URLSession.shared.dataTask(with: request) { _, response, _ in
        // Anything but 200: keep the report and send it again with the next one.
        if (response as? HTTPURLResponse)?.statusCode != 200 { /* queue it */ }
    }.resume()
}`,
        },
        {
          title: 'Report a caught error',
          code: `do {
    try checkout.submit()
} catch {
    reportError(error)
}`,
        },
      ],
    },
    {
      id: 'report',
      label: 'Native report (any client)',
      steps: [
        {
          title: "POST a report with the connection string's token and URL",
          code: [
            `curl ${origin}/api/report \\`,
            `  -H 'Authorization: Bearer ${token}' -H 'Content-Type: application/json' \\`,
            `  -d '{"appVersion":"1.0.0","serverName":"","collectionFrames":[{"stackTraces":[],"metrics":[],"traces":[]}]}'`,
          ].join('\n'),
        },
      ],
    },
  ];
  return { otlpEnv, frameworks };
}
