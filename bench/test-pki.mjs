/**
 * A throwaway certificate authority and a leaf it signed for localhost and 127.0.0.1, made with
 * `openssl`, for the benchmarks' local HTTPS receivers; the server trusts the CA through
 * NODE_EXTRA_CA_CERTS. Plain JavaScript beside the benchmarks, because the server's build leaves
 * its test fixtures out of dist.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

const EC_KEY = ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes'];

export function createTestPki() {
  const dir = mkdtempSync(path.join(tmpdir(), 'touchtrail-bench-pki-'));
  const file = (name) => path.join(dir, name);
  const openssl = (...args) => execFileSync('openssl', args, { cwd: dir, stdio: 'pipe' });
  openssl(
    ...['req', '-x509', ...EC_KEY, '-keyout', 'ca.key', '-out', 'ca.pem', '-days', '2'],
    ...['-subj', '/CN=Touchtrail Bench CA', '-addext', 'basicConstraints=critical,CA:TRUE'],
    ...['-addext', 'keyUsage=critical,keyCertSign,cRLSign'],
  );
  openssl('req', ...EC_KEY, '-keyout', 'leaf.key', '-out', 'leaf.csr', '-subj', '/CN=localhost');
  writeFileSync(
    file('leaf.ext'),
    'subjectAltName=DNS:localhost,IP:127.0.0.1\nbasicConstraints=CA:FALSE\nextendedKeyUsage=serverAuth\n',
  );
  openssl(
    ...['x509', '-req', '-in', 'leaf.csr', '-CA', 'ca.pem', '-CAkey', 'ca.key', '-CAcreateserial'],
    ...['-out', 'leaf.pem', '-days', '2', '-extfile', 'leaf.ext'],
  );
  return {
    caFile: file('ca.pem'),
    leaf: { key: readFileSync(file('leaf.key'), 'utf8'), cert: readFileSync(file('leaf.pem'), 'utf8') },
    remove: () => rmSync(dir, { recursive: true, force: true }),
  };
}
