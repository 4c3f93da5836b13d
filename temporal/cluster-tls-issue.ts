// The launcher's local certificate set for the real Temporal server (layout and roles:
// temporal/cluster-tls.ts), issued with @peculiar/x509 on WebCrypto (ECDSA P-256). Only the launcher
// loads this module: the library wants a Reflect metadata polyfill, which the API and worker never need.
import 'reflect-metadata';
import crypto, { type webcrypto } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import * as x509 from '@peculiar/x509';
import { withPrivateUmask } from '../lib/umask';
import { CLIENT_IDENTITIES, clientPairAt, clusterTlsAt, FRONTEND_SERVER_NAME, INTERNODE_SERVER_NAME, localTlsDirOf, type ClusterTls, type PemPair } from './cluster-tls';

/** Local leaves live 90 days and are renewed at start with 30 left; the local CAs live two years, renewed with 60 left. */
const LEAF_DAYS = 90;
const CA_DAYS = 730;
export const LEAF_RENEW_DAYS = 30;
const CA_RENEW_DAYS = 60;
const DAY_MS = 86_400_000;

const ALG: webcrypto.EcKeyGenParams & webcrypto.EcdsaParams = { name: 'ECDSA', namedCurve: 'P-256', hash: 'SHA-256' };

async function keys(): Promise<webcrypto.CryptoKeyPair> {
  return crypto.webcrypto.subtle.generateKey(ALG, true, ['sign', 'verify']) as Promise<webcrypto.CryptoKeyPair>;
}

async function keyPem(key: webcrypto.CryptoKey): Promise<string> {
  const der = Buffer.from(await crypto.webcrypto.subtle.exportKey('pkcs8', key));
  return x509.PemConverter.encode(der, 'PRIVATE KEY');
}

interface Issuer {
  cert: x509.X509Certificate;
  key: webcrypto.CryptoKey;
}

async function makeCa(name: string, now: Date): Promise<{ cert: x509.X509Certificate; keys: webcrypto.CryptoKeyPair }> {
  const pair = await keys();
  const cert = await x509.X509CertificateGenerator.createSelfSigned({
    serialNumber: crypto.randomBytes(16).toString('hex').replace(/^[89a-f]/, '1'),
    name: `CN=${name}, O=tattoo-intake local`,
    notBefore: new Date(now.getTime() - 60_000),
    notAfter: new Date(now.getTime() + CA_DAYS * DAY_MS),
    keys: pair,
    signingAlgorithm: ALG,
    extensions: [
      new x509.BasicConstraintsExtension(true, 0, true),
      new x509.KeyUsagesExtension(x509.KeyUsageFlags.keyCertSign | x509.KeyUsageFlags.cRLSign, true),
      await x509.SubjectKeyIdentifierExtension.create(pair.publicKey),
    ],
  });
  return { cert, keys: pair };
}

async function makeLeaf(issuer: Issuer, cn: string, usages: string[], names: string[], now: Date): Promise<{ cert: x509.X509Certificate; key: webcrypto.CryptoKey }> {
  const pair = await keys();
  const cert = await x509.X509CertificateGenerator.create({
    serialNumber: crypto.randomBytes(16).toString('hex').replace(/^[89a-f]/, '1'),
    subject: `CN=${cn}, O=tattoo-intake local`,
    issuer: issuer.cert.subject,
    notBefore: new Date(now.getTime() - 60_000),
    notAfter: new Date(now.getTime() + LEAF_DAYS * DAY_MS),
    publicKey: pair.publicKey,
    signingKey: issuer.key,
    signingAlgorithm: ALG,
    extensions: [
      new x509.BasicConstraintsExtension(false, undefined, true),
      new x509.KeyUsagesExtension(x509.KeyUsageFlags.digitalSignature, true),
      new x509.ExtendedKeyUsageExtension(usages, false),
      ...(names.length ? [new x509.SubjectAlternativeNameExtension(names.map((n) => (/^\d+\.\d+\.\d+\.\d+$/.test(n) ? { type: 'ip' as const, value: n } : { type: 'dns' as const, value: n })), false)] : []),
      await x509.AuthorityKeyIdentifierExtension.create(issuer.cert, false),
    ],
  });
  return { cert, key: pair.privateKey };
}

function expiresWithin(file: string, days: number, now: Date): boolean {
  try {
    const cert = new x509.X509Certificate(fs.readFileSync(file, 'utf8'));
    return cert.notAfter.getTime() - now.getTime() < days * DAY_MS;
  } catch {
    return true;
  }
}

const SERVER_AUTH = x509.ExtendedKeyUsage.serverAuth;
const CLIENT_AUTH = x509.ExtendedKeyUsage.clientAuth;

/**
 * The launcher's local set under DATA_DIR/secrets/temporal-tls: made on first start, renewed at a
 * later start when a leaf has fewer than 30 days or a CA fewer than 60 (then every leaf is issued
 * again). Keys are written 0600 in a 0700 directory. Returns whether anything was (re)issued.
 */
export async function ensureLocalClusterTls(dataDir: string, now = new Date()): Promise<{ tls: ClusterTls; issued: string[] }> {
  const dir = localTlsDirOf(dataDir);
  fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  const tls = clusterTlsAt(dir);
  const caKey = (pem: string) => path.join(dir, `${path.basename(pem, '.pem')}.key`);
  const issued: string[] = [];
  const write = (file: string, text: string, mode: number) => withPrivateUmask(() => fs.writeFileSync(file, text, { mode }));

  const loadOrMakeCa = async (file: string, name: string): Promise<Issuer & { fresh: boolean }> => {
    if (!expiresWithin(file, CA_RENEW_DAYS, now) && fs.existsSync(caKey(file))) {
      const der = x509.PemConverter.decode(fs.readFileSync(caKey(file), 'utf8'))[0]!;
      const key = await crypto.webcrypto.subtle.importKey('pkcs8', der, ALG, false, ['sign']);
      return { cert: new x509.X509Certificate(fs.readFileSync(file, 'utf8')), key, fresh: false };
    }
    const ca = await makeCa(name, now);
    write(caKey(file), await keyPem(ca.keys.privateKey), 0o600);
    write(file, ca.cert.toString('pem'), 0o644);
    issued.push(path.basename(file));
    return { cert: ca.cert, key: ca.keys.privateKey, fresh: true };
  };
  const cluster = await loadOrMakeCa(tls.clusterCa, 'tattoo-intake Temporal cluster CA');
  const client = await loadOrMakeCa(tls.clientCa, 'tattoo-intake Temporal client CA');

  const leaf = async (pair: PemPair, issuer: Issuer & { fresh: boolean }, cn: string, usages: string[], names: string[]) => {
    if (!issuer.fresh && !expiresWithin(pair.cert, LEAF_RENEW_DAYS, now) && fs.existsSync(pair.key)) return;
    const made = await makeLeaf(issuer, cn, usages, names, now);
    // The key first: a reader that sees the new certificate finds its key.
    write(pair.key, await keyPem(made.key), 0o600);
    write(pair.cert, made.cert.toString('pem'), 0o644);
    issued.push(path.basename(pair.cert));
  };
  await leaf(tls.frontend, cluster, FRONTEND_SERVER_NAME, [SERVER_AUTH], [FRONTEND_SERVER_NAME, 'localhost', '127.0.0.1']);
  await leaf(tls.internode, cluster, INTERNODE_SERVER_NAME, [SERVER_AUTH, CLIENT_AUTH], [INTERNODE_SERVER_NAME, 'localhost', '127.0.0.1']);
  for (const who of CLIENT_IDENTITIES) await leaf(clientPairAt(dir, who), client, `tattoo-intake-${who}`, [CLIENT_AUTH], []);
  return { tls, issued };
}

