// Child process of openPgliteMetaDb: initialises an empty PGlite data folder, then exits.
// PGlite's initdb grows WebAssembly memory that the process never gets back (about 0.5 GB);
// run here, it is returned to the system when this process ends, and the service opens the
// folder warm. Arguments: the folder, then PGlite's options as JSON.
import { PGlite } from '@electric-sql/pglite';

const [folder, options] = process.argv.slice(2);
const pg = await PGlite.create({ dataDir: folder, ...JSON.parse(options) });
await pg.close();
