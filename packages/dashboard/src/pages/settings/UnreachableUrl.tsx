/**
 * A receiving URL on this machine's own address (no `PUBLIC_URL`, or one naming localhost) cannot
 * be reached by a processor on the internet: say so beside the URL, with the fix.
 */
const LOCAL_HOST = /^(localhost|.*\.localhost|127(\.\d+){3}|0\.0\.0\.0|\[::1?\])$/;

export function isLocalUrl(url: string): boolean {
  try {
    return LOCAL_HOST.test(new URL(url).hostname);
  } catch {
    return false;
  }
}

export function UnreachableUrl({ url, processor }: { url: string; processor: string }) {
  if (!isLocalUrl(url)) return null;
  return (
    <p className="small warn-text" role="note">
      {processor} cannot reach this address: it is local to this machine. Set <code>PUBLIC_URL</code> to the
      address the server is reached at from the internet (or run a tunnel and set it to the tunnel’s),
      restart, and the URL follows.
    </p>
  );
}
