/**
 * Set-up snippets per language. Server-side languages use the OpenTelemetry SDK's standard
 * exporter variables (README "First steps"), so one block of variables serves them all.
 */
export interface FrameworkSnippet {
  id: string;
  label: string;
  steps: Array<{ title: string; code: string }>;
}

export function snippetsFor(token: string, origin: string) {
  const endpoint = `${origin}/api/otel`;
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
      id: 'report',
      label: 'Native report (Flutter, iOS, any client)',
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
