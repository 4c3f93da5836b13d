// Children that keep private data (the Temporal history holds review notes; the API and worker
// write staged media and previews) are spawned with umask 077, so what they create is readable by
// this user only. Not around embedded PostgreSQL: run as root, it hands initdb a temporary password
// file that the `postgres` user must read (PostgreSQL makes its own files private anyway).
export function withPrivateUmask<T>(fn: () => T): T {
  let previous: number | undefined;
  try {
    previous = process.umask(0o077);
  } catch {
    return fn(); // a worker thread cannot change the process umask
  }
  try {
    return fn();
  } finally {
    process.umask(previous);
  }
}
