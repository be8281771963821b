/**
 * Profiles (ExportProfilesServiceRequest, v1development) are stored as received; this only checks
 * the envelope is well formed and reads what a profiles row indexes: the resources' service names
 * and the number of samples. Field numbers that have been stable through the v1development
 * revisions: request { resource_profiles = 1, dictionary = 2 }, ResourceProfiles { resource = 1,
 * scope_profiles = 2 }, ScopeProfiles { profiles = 2 }, Profile { samples = 2 } (`sample` in older
 * OTLP/JSON). Everything inside a sample, and the dictionary, is skipped unread.
 */
import { serviceOf } from '../../core/classify/attributes.js';
import type { OtlpResource } from '../../core/classify/otlp-model.js';
import type { OtlpEncoding } from './encoding.js';
import { type JsonObject, list, object, parseJsonBody, readResource as readResourceJson } from './json.js';
import { readResource } from './protobuf.js';
import { WireReader } from './wire.js';

export interface OtlpProfilesSummary {
  /** Distinct `service.name` values of the resources, in order of appearance. */
  serviceNames: string[];
  sampleCount: number;
}

export function inspectProfilesRequest(body: Uint8Array, encoding: OtlpEncoding): OtlpProfilesSummary {
  const summary: OtlpProfilesSummary = { serviceNames: [], sampleCount: 0 };
  if (encoding === 'protobuf') inspectProtobuf(new WireReader(body), summary);
  else inspectJson(parseJsonBody(body), summary);
  return summary;
}

function addServiceName(resource: OtlpResource, summary: OtlpProfilesSummary): void {
  const { name } = serviceOf(resource);
  if (name !== '' && !summary.serviceNames.includes(name)) summary.serviceNames.push(name);
}

function inspectProtobuf(r: WireReader, summary: OtlpProfilesSummary): void {
  while (r.pos < r.limit) {
    const tag = r.tag();
    if (tag === 10 /* 1: resource_profiles */) inspectResourceProfiles(r, summary);
    else r.skip(tag);
  }
}

function inspectResourceProfiles(r: WireReader, summary: OtlpProfilesSummary): void {
  const outer = r.enter('ResourceProfiles');
  while (r.pos < r.limit) {
    const tag = r.tag();
    if (tag === 10 /* 1: resource */) addServiceName(readResource(r), summary);
    else if (tag === 18 /* 2: scope_profiles */) summary.sampleCount += countScopeSamples(r);
    else r.skip(tag);
  }
  r.leave(outer);
}

function countScopeSamples(r: WireReader): number {
  const outer = r.enter('ScopeProfiles');
  let count = 0;
  while (r.pos < r.limit) {
    const tag = r.tag();
    if (tag === 18 /* 2: profiles */) count += countProfileSamples(r);
    else r.skip(tag);
  }
  r.leave(outer);
  return count;
}

function countProfileSamples(r: WireReader): number {
  const outer = r.enter('Profile');
  let count = 0;
  while (r.pos < r.limit) {
    const tag = r.tag();
    if (tag === 18 /* 2: samples */) count++;
    r.skip(tag);
  }
  r.leave(outer);
  return count;
}

function inspectJson(root: JsonObject, summary: OtlpProfilesSummary): void {
  list(root, 'resourceProfiles', 'resource_profiles', '', (resourceProfiles, path) => {
    const source = object(resourceProfiles, path) ?? {};
    addServiceName(readResourceJson(source.resource, `${path}.resource`), summary);
    list(source, 'scopeProfiles', 'scope_profiles', path, (scopeProfiles, scopePath) => {
      list(object(scopeProfiles, scopePath) ?? {}, 'profiles', 'profiles', scopePath, (profile, profilePath) => {
        const samples = list(object(profile, profilePath) ?? {}, 'samples', 'sample', profilePath, () => undefined);
        summary.sampleCount += samples.length;
      });
    });
  });
}
