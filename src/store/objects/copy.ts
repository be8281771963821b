/**
 * Copying every object of one store into another (`sightline move`: the data folder's objects/
 * into an S3 bucket), streamed one object at a time. An object already at the target with the
 * same size is skipped, so a move cut short can be run again. Copies are new objects: their
 * write time is the copy's, which the expiry jobs count from. A redo of a move cut short first
 * removes what the earlier run copied and the source has deleted since (removeObjectsNotIn).
 */
import { OBJECT_KEY_FAMILIES } from './keys.js';
import { InvalidObjectKeyError, type ObjectStore } from './types.js';

export interface ObjectsCopied {
  copied: number;
  skipped: number;
  bytes: number;
}

export async function copyObjects(
  from: ObjectStore,
  to: ObjectStore,
  onProgress: (event: ObjectsCopied) => void = () => undefined,
): Promise<ObjectsCopied> {
  const done: ObjectsCopied = { copied: 0, skipped: 0, bytes: 0 };
  let after: string | undefined;
  do {
    const page = await from.list('', after === undefined ? {} : { after });
    for (const key of page.keys) {
      const source = await from.head(key);
      if (source === null) continue; // deleted since it was listed
      const existing = await to.head(key);
      if (existing?.size === source.size) {
        done.skipped++;
        continue;
      }
      const body = await from.getStream(key);
      if (body === null) continue;
      const { size } = await to.put(key, body);
      if (size !== source.size) throw new Error(`object ${key}: ${size} bytes written of ${source.size}`);
      done.copied++;
      done.bytes += size;
    }
    onProgress({ ...done });
    after = page.next;
  } while (after !== undefined);
  return done;
}

/**
 * Removes from `to` every object under Sightline's key families that `from` does not hold, a
 * listed page at a time; keys outside those families are never touched. Answers how many.
 */
export async function removeObjectsNotIn(from: ObjectStore, to: ObjectStore): Promise<number> {
  let removed = 0;
  for (const family of OBJECT_KEY_FAMILIES) {
    let after: string | undefined;
    do {
      const page = await to.list(`${family}/`, after === undefined ? {} : { after });
      for (const key of page.keys) {
        if (await isHeldBy(from, key)) continue;
        await to.delete(key);
        removed++;
      }
      after = page.next;
    } while (after !== undefined);
  }
  return removed;
}

/** A key Sightline could not have written (not a valid key) is not Sightline's: counted as held, so kept. */
async function isHeldBy(store: ObjectStore, key: string): Promise<boolean> {
  try {
    return (await store.head(key)) !== null;
  } catch (error) {
    if (error instanceof InvalidObjectKeyError) return true;
    throw error;
  }
}
