import { InputError } from "../core/errors.js";

/**
 * The queue's address: `redis://[user:password@]host:port[/db]` (or `rediss://` for TLS).
 * The password is a secret: it is redacted wherever the URL is shown and added to the
 * redactor of every saved file.
 */
export interface QueueUrl {
  /** The URL as given (with its password): only for connecting. */
  href: string;
  /** For messages and files: the password replaced. */
  display: string;
  password: string | null;
  db: number;
}

export function parseQueueUrl(text: string, field = "--queue"): QueueUrl {
  let u: URL;
  try {
    u = new URL(text);
  } catch {
    throw new InputError(`${field}: not a URL (expected redis://host:port/db)`, { field });
  }
  if (u.protocol !== "redis:" && u.protocol !== "rediss:")
    throw new InputError(
      `${field}: expected a redis:// or rediss:// URL, got ${u.protocol.replace(/:$/, "")}://`,
      { field },
    );
  if (!u.hostname) throw new InputError(`${field}: the URL names no host`, { field });
  const dbText = u.pathname.replace(/^\//, "");
  const db = dbText === "" ? 0 : Number(dbText);
  if (!Number.isInteger(db) || db < 0)
    throw new InputError(`${field}: the database (the path after the port) must be a number`, {
      field,
    });
  const password = u.password ? decodeURIComponent(u.password) : null;
  return { href: text, display: redactQueueUrl(text), password, db };
}

/** The URL with its password (and a user's, if any) replaced by `***`. */
export function redactQueueUrl(text: string): string {
  try {
    const u = new URL(text);
    if (u.password) u.password = "***";
    return u.toString();
  } catch {
    return text.replace(/\/\/[^@/]*@/, "//***@");
  }
}
