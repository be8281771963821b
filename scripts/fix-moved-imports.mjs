// One-off for merging the branches that were open while issue 18's layers landed (delete after):
// rewrites relative imports that name a module moved by the layers branch to its new path, and
// imports of Services / PROJECT_CHANGED_CHANNEL from server/services.js to application/services.js.
// Usage, at the repository root after a merge: node scripts/fix-moved-imports.mjs [--dry-run]
// Then move any new file left in a moved folder (e.g. src/ingest/symbolication/x.ts) by hand.
import fs from 'node:fs';
import path from 'node:path';

/** Old path -> new path (files; a folder moves every file below it). */
const MOVES = [
  ['src/server/errors.ts', 'src/http/errors.ts'],
  ['src/server/error-handler.ts', 'src/http/error-handler.ts'],
  ['src/server/bearer.ts', 'src/http/bearer.ts'],
  ['src/server/body.ts', 'src/http/body.ts'],
  ['src/server/body-parsers.ts', 'src/http/body-parsers.ts'],
  ['src/server/limits.ts', 'src/http/limits.ts'],
  ['src/ingest/admission.ts', 'src/http/admission.ts'],
  ['src/ingest/admission.test.ts', 'src/http/admission.test.ts'],
  ['src/ingest/writer.ts', 'src/store/telemetry/writer.ts'],
  ['src/api/auth/session-tokens.ts', 'src/application/auth/session-tokens.ts'],
  ['src/api/auth/accounts.ts', 'src/application/auth/accounts.ts'],
  ['src/api/auth/passwords.ts', 'src/application/auth/passwords.ts'],
  ['src/api/billing/payments.ts', 'src/application/billing/payments.ts'],
  ['src/api/billing/stripe.ts', 'src/application/billing/stripe.ts'],
  ['src/api/billing/subscriptions.ts', 'src/application/billing/subscriptions.ts'],
  ['src/api/billing/plan-of.ts', 'src/application/billing/plan-of.ts'],
  ['src/api/tokens/token-use.ts', 'src/application/tokens/token-use.ts'],
  ['src/api/device/grants.ts', 'src/application/device/grants.ts'],
  ['src/api/organizations/invitations.ts', 'src/application/organizations/invitations.ts'],
  ['src/api/project-changes.ts', 'src/application/project-changes.ts'],
  ['src/server/mail.ts', 'src/application/mail.ts'],
  ['src/server/metrics.ts', 'src/application/metrics.ts'],
  ['src/server/periodic-job.ts', 'src/application/jobs/periodic-job.ts'],
  ['src/server/periodic-job.test.ts', 'src/application/jobs/periodic-job.test.ts'],
  ['src/server/rollup-job.ts', 'src/application/jobs/rollup-job.ts'],
  ['src/server/project-purge-job.ts', 'src/application/jobs/project-purge-job.ts'],
  ['src/server/object-expiry-job.ts', 'src/application/jobs/object-expiry-job.ts'],
  ['src/server/alerting', 'src/application/alerting'],
  ['src/ingest/project-cache.ts', 'src/application/project-cache.ts'],
  ['src/ingest/project-cache.test.ts', 'src/application/project-cache.test.ts'],
  ['src/ingest/issue-detector.ts', 'src/application/issue-detector.ts'],
  ['src/ingest/rollup-marks.ts', 'src/application/rollup-marks.ts'],
  ['src/ingest/symbolication', 'src/application/symbolication'],
  ['src/symbols/testing/dwarf-writer.ts', 'test/support/symbols/dwarf-writer.ts'],
  ['src/symbols/testing/fixtures.ts', 'test/support/symbols/fixtures.ts'],
  ['src/symbols/testing/synthetic-files.ts', 'test/support/symbols/synthetic-files.ts'],
  ['src/core/classify/test-spans.ts', 'test/support/test-spans.ts'],
  ['src/ingest/otlp/test-protobuf.ts', 'test/support/otlp-protobuf.ts'],
  ['test/alerts/alerting.test.ts', 'test/application/alerting/alerting.test.ts'],
  ['test/alerts/multi-process.test.ts', 'test/application/alerting/multi-process.test.ts'],
  ['test/alerts/routes.test.ts', 'test/api/alerts/routes.test.ts'],
  ['test/otlp', 'test/ingest/otlp'],
  ['test/telemetry/conventions.test.ts', 'test/api/telemetry/conventions.test.ts'],
  ['test/telemetry/dashboards.test.ts', 'test/api/telemetry/dashboards.test.ts'],
  ['test/telemetry/openapi.test.ts', 'test/api/telemetry/openapi.test.ts'],
  ['test/telemetry/prototype-names.test.ts', 'test/api/telemetry/prototype-names.test.ts'],
  ['test/telemetry/query-limits.test.ts', 'test/api/telemetry/query-limits.test.ts'],
  ['test/telemetry/read-api-chdb.test.ts', 'test/api/telemetry/read-api-chdb.test.ts'],
  ['test/telemetry/read-api-clickhouse-http.test.ts', 'test/api/telemetry/read-api-clickhouse-http.test.ts'],
  ['test/telemetry/read-api.contract.ts', 'test/api/telemetry/read-api.contract.ts'],
  ['test/telemetry/rollup-chdb.test.ts', 'test/store/telemetry/rollup-chdb.test.ts'],
  ['test/telemetry/rollup-clickhouse-http.test.ts', 'test/store/telemetry/rollup-clickhouse-http.test.ts'],
  ['test/telemetry/rollup.contract.ts', 'test/store/telemetry/rollup.contract.ts'],
  ['test/telemetry/rollup-job.test.ts', 'test/application/jobs/rollup-job.test.ts'],
  ['test/symbols/upload.test.ts', 'test/api/symbols/upload.test.ts'],
  ['test/symbols/lookup-bounds.test.ts', 'test/application/symbolication/lookup-bounds.test.ts'],
  ['test/symbols/reupload.test.ts', 'test/application/symbolication/reupload.test.ts'],
  ['test/symbols/symbolication.test.ts', 'test/application/symbolication/symbolication.test.ts'],
  ['test/api/mail.test.ts', 'test/application/mail.test.ts'],
  ['test/api/object-expiry.test.ts', 'test/application/jobs/object-expiry.test.ts'],
  ['test/api/project-purge-chdb.test.ts', 'test/application/jobs/project-purge-chdb.test.ts'],
  ['test/api/project-purge-clickhouse-http.test.ts', 'test/application/jobs/project-purge-clickhouse-http.test.ts'],
  ['test/api/project-purge.contract.ts', 'test/application/jobs/project-purge.contract.ts'],
  ['test/api/configuration.test.ts', 'test/configuration.test.ts'],
  ['test/api/demo.test.ts', 'test/scripts/demo.test.ts'],
  ['test/api/api-client.test.ts', 'test/packages/api-client.test.ts'],
  ['test/api/secrets.test.ts', 'test/server/secrets.test.ts'],
  ['test/server/accounts.test.ts', 'test/api/accounts.test.ts'],
  ['test/server/refused-bodies.test.ts', 'test/http/refused-bodies.test.ts'],
  ['test/api/helpers.ts', 'test/support/access.ts'],
];

const dryRun = process.argv.includes('--dry-run');
const moved = (target) => {
  for (const [from, to] of MOVES) {
    if (target === from) return to;
    if (target.startsWith(from + '/')) return to + target.slice(from.length);
  }
  return null;
};
const list = (dir) => (fs.existsSync(dir) ? fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? list(path.join(dir, e.name)) : [path.join(dir, e.name)])) : []);
const files = ['src', 'test', 'bench', 'scripts'].flatMap(list).filter((f) => /\.(ts|mts|mjs|tsx)$/.test(f) && !f.startsWith('test/fixtures'));
let changed = 0;
for (const file of files) {
  const text = fs.readFileSync(file, 'utf8');
  let next = text.replace(/(['"])(\.\.?\/[^'"\n]*)\1/g, (match, quote, spec) => {
    const resolved = path.normalize(path.join(path.dirname(file), spec));
    const asTs = resolved.replace(/\.js$/, '.ts');
    if (fs.existsSync(resolved) || fs.existsSync(asTs)) return match;
    const target = moved(asTs) ?? moved(resolved);
    if (target === null) return match;
    let rel = path.relative(path.dirname(file), spec.endsWith('.js') ? target.replace(/\.ts$/, '.js') : target).split(path.sep).join('/');
    if (!rel.startsWith('.')) rel = './' + rel;
    return quote + rel + quote;
  });
  next = next.replace(/import (type )?\{([^}]*)\} from '((?:\.\.\/)+(?:src\/)?)server\/services\.js';/g, (match, typeOnly, names, prefix) => {
    const all = names.split(',').map((n) => n.trim()).filter(Boolean);
    const down = all.filter((n) => /^(type )?(Services|PROJECT_CHANGED_CHANNEL)$/.test(n) || (typeOnly && n === 'Services'));
    if (down.length === 0) return match;
    const rest = all.filter((n) => !down.includes(n));
    const fromServer = file.startsWith('src/server/');
    const appPath = fromServer ? '../application/services.js' : `${prefix}application/services.js`;
    const lines = [];
    if (rest.length) lines.push(`import ${typeOnly ?? ''}{ ${rest.join(', ')} } from '${prefix}server/services.js';`);
    lines.push(`import ${typeOnly ?? ''}{ ${down.join(', ')} } from '${appPath}';`);
    return lines.join('\n');
  });
  if (next !== text) {
    changed++;
    console.log(file);
    if (!dryRun) fs.writeFileSync(file, next);
  }
}
console.log(`${dryRun ? 'would rewrite' : 'rewrote'} ${changed} files`);
