// `sha256:<hex>` digests of skill files (the MCP Skills Extension's `resources[].digest`, the archive's ETag),
// computed over the raw bytes through the same guarded open as the file route, and cached by file identity (device,
// inode, size, modification time): a repeated listing does not read unchanged files again.

import { createHash } from 'node:crypto';
import { openSkillFile, type SkillFileResource } from './resolve-skill-url.js';

export interface FileDigests {
  /** The digest of the file `resource` resolved to; read again only when its identity changed. */
  digest(resource: SkillFileResource): Promise<string>;
  /** Entries held (for tests and health figures). */
  readonly size: number;
}

interface CachedDigest {
  identity: string;
  digest: string;
}

/** Enough for every file of a few hundred large skills; the oldest entry goes first past it. */
export const DEFAULT_DIGEST_CACHE_ENTRIES = 20_000;

export function createFileDigests(maxEntries = DEFAULT_DIGEST_CACHE_ENTRIES): FileDigests {
  const cache = new Map<string, CachedDigest>();
  return {
    async digest(resource) {
      const identity = identityOf(resource);
      const cached = cache.get(resource.realPath);
      if (cached?.identity === identity) return cached.digest;
      const { digest, identity: read } = await digestFile(resource);
      cache.delete(resource.realPath);
      cache.set(resource.realPath, { identity: read, digest });
      if (cache.size > maxEntries) cache.delete(cache.keys().next().value as string);
      // A file that changed while it was read is cached under what was read, and the caller gets those bytes' digest.
      return digest;
    },
    get size() {
      return cache.size;
    },
  };
}

/** The digest of the bytes of one opened file, and the identity of the descriptor it read. */
export async function digestFile(resource: SkillFileResource): Promise<{ digest: string; identity: string }> {
  const { handle, stat } = await openSkillFile(resource);
  try {
    const hash = createHash('sha256');
    for await (const chunk of handle.createReadStream({ autoClose: false, start: 0 })) hash.update(chunk as Buffer);
    return {
      digest: `sha256:${hash.digest('hex')}`,
      identity: identityOf({ dev: stat.dev, ino: stat.ino, size: stat.size, mtimeMs: stat.mtimeMs }),
    };
  } finally {
    await handle.close();
  }
}

function identityOf(file: { dev: number; ino: number; size: number; mtimeMs: number }): string {
  return `${file.dev}:${file.ino}:${file.size}:${file.mtimeMs}`;
}
