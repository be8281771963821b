import fs from 'node:fs';

/** The package's version (`sightline version`, backup manifests); src/server/ and dist/server/ both sit two levels below package.json. */
export function packageVersion(): string {
  const manifest = JSON.parse(fs.readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as {
    version: string;
  };
  return manifest.version;
}
