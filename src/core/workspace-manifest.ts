import { z } from "zod";

/**
 * The list of everything a run's workspace held when the run ended (docs/ARCHITECTURE.md, "One
 * scoring step"): every file, folder and symbolic link with its size and (for files) its SHA-256,
 * and whether the results folder keeps a copy of it (`saved`). Scoring takes existence from here
 * and content from the saved copy, so a run and a later `rescore` see the same files.
 */
export const MANIFEST_SCHEMA = "skillbench.workspace-manifest.v1";

const ManifestEntrySchema = z.object({
  /** Workspace-relative, POSIX separators. */
  path: z.string().min(1),
  kind: z.enum(["file", "dir", "symlink"]),
  /** Bytes (a symbolic link: the length of its target; a folder: 0). */
  size: z.number().int().nonnegative(),
  /** Hex SHA-256 of a file's bytes; null for folders, links, and files over the hashing limit. */
  sha256: z.string().nullable(),
  /** The results folder holds a copy (redacted text) under runs/<id>/workspace/. */
  saved: z.boolean(),
  /** Why a file has no saved copy: a skipped folder, binary, too large, unreadable. */
  reason: z.string().optional(),
  /** A symbolic link's target as written (redacted), never followed. */
  target: z.string().optional(),
});
export type ManifestEntry = z.infer<typeof ManifestEntrySchema>;

export const WorkspaceManifestSchema = z.object({
  schema: z.literal(MANIFEST_SCHEMA),
  /** Entries in path order. */
  entries: z.array(ManifestEntrySchema),
  /** Entries left out of `entries` beyond the entry limit (0: the list is complete). */
  omitted: z.number().int().nonnegative(),
  limits: z.object({ max_entries: z.number().int(), max_hash_bytes: z.number().int() }),
});
export type WorkspaceManifest = z.infer<typeof WorkspaceManifestSchema>;
