// The plain name of a stored media file, `media/<id>`: the one name that every version of the
// service takes for the file of a media that has a row. Audio attached to a transcript on its own
// is committed beside the transcript's file under a new name of the media (`<id>.<token>`), and
// the row names it, so that at every step the row names a whole file (files.attach.ts). But a
// version before that counts a file as a row's only when its name is the id of a media with a
// row, and its orphan sweeps remove any other name once an hour old: during a rolling upgrade,
// and for good after a rollback, the audio would be gone. So, once its row names it, the audio
// takes the plain name:
//   1. `<id>` is made a hard link to the audio (a copy where links are not made) under a staged
//      name, renamed over `<id>`: the transcript's file there is replaced in one step
//      (BlobStore.placePlain);
//   2. the row names `<id>` if it still names `<id>.<token>` (a compare-and-set);
//   3. `<id>.<token>` is removed.
// A crash before 2 leaves the row naming `<id>.<token>`, which is there; after it, an extra name
// no row names, which the sweeps remove (sweepOrphans; at worst a staged name from 1). An attach
// takes these steps right after its row names the audio, seconds after its commit touched it,
// and an older version's sweep removes only files an hour old: it never sees such a row. Rows
// left naming a name beside (a crash, a step that failed) are given the plain name by the next
// sweep, at start or periodic (givePlainNames); only until then can an older process's sweep
// remove their file, once it is an hour old (docs/deploy.md). Two processes may
// give one media its plain name at once (an attach and a sweep): each renames the same bytes over
// `<id>`, one compare-and-set wins, and the name beside goes either way, as no row names it again.
// Only a process that read the row naming the name beside renames over `<id>`: until then `<id>`
// is the transcript's file, the row's. And the sweeps never remove `<id>` while its media has a
// row (namedFiles): one that asked while the row named the name beside would otherwise remove,
// just after the audio took it, the plain name the row names by then.
// A reader that read the row before step 2 and opens the file after step 3 reads the row again
// (media-content.ts, media-analysis.runner.ts).
import path from 'node:path';
import { errorText, mediaIdOfFile, ORPHAN_BATCH, type BlobStore, type SweepLog } from '../store/blob-store.ts';
import type { MediaStore } from './media.store.ts';

/** What giving plain names uses: the rows' storage paths, and the stored files. */
export interface PlainNameDeps {
  media: Pick<MediaStore, 'storagePaths' | 'renameFile'>;
  blobs: Pick<BlobStore, 'placePlain' | 'namesBeside' | 'remove'>;
}

/**
 * Gives `file`, the file that the row of media `mediaId` names by a name beside, the plain name,
 * and the row that name (steps 1 to 3 above): whether this call renamed the row (false when
 * another process did first, or the media is gone). Throws when a step fails, leaving what the
 * steps before it did.
 */
export async function givePlainName(deps: PlainNameDeps, mediaId: string, file: string): Promise<boolean> {
  const plain = await deps.blobs.placePlain(file, mediaId);
  if (plain === file) return false;
  const renamed = await deps.media.renameFile(mediaId, file, plain);
  // No row names `file` now, and none will: a name beside is never given again.
  await deps.blobs.remove(file);
  return renamed;
}

/**
 * The sweeps' step (PlainNames, store/orphan-sweeper.ts): every stored file that its row names by
 * a name beside is given the plain name; answers how many. The rows are asked about the names
 * beside in the media folder (a few, once a crash left them), ORPHAN_BATCH at a time; a file whose
 * steps fail is told to `log` and left for the next sweep.
 */
export async function givePlainNames(deps: PlainNameDeps, log: SweepLog): Promise<number> {
  const names = await deps.blobs.namesBeside();
  let given = 0;
  for (let start = 0; start < names.length; start += ORPHAN_BATCH) {
    const batch = names.slice(start, start + ORPHAN_BATCH);
    const paths = await deps.media.storagePaths([...new Set(batch.map(mediaIdOfFile))]);
    for (const name of batch) {
      const file = paths.get(mediaIdOfFile(name));
      // A name the row does not name is an orphan's (a failed attach, a staged name): sweepOrphans' to remove.
      if (file === undefined || path.basename(file) !== name) continue;
      try {
        if (await givePlainName(deps, mediaIdOfFile(name), file)) given++;
      } catch (err) {
        // Gone since the row was read: given the plain name by another process, or deleted.
        if ((err as NodeJS.ErrnoException).code === 'ENOENT') continue;
        log("upload sweep: cannot give a stored file its media's plain name; left for the next sweep (until then, a process of a version before names beside removes it once an hour old)", { file, err: errorText(err) });
      }
    }
  }
  return given;
}
