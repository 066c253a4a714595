/**
 * HTTPS on ragmeter's listeners (issue 39): the collector's OTLP receiver and the read API serve
 * TLS from a PEM certificate and key named by two settings, read and checked at start (a bad file is
 * one line naming its setting) and read again when either file changes, so a renewed certificate is
 * served without a restart.
 */
import { createPrivateKey, X509Certificate } from "node:crypto";
import { type FSWatcher, readFileSync, watch } from "node:fs";
import path from "node:path";
import { createSecureContext } from "node:tls";
import { RagmeterError } from "./errors.js";
import { type Logger, type PinoLogger, pinoOf } from "./logger.js";

/** The settings naming the files. */
export const TLS_CERT_SETTING = "RAGMETER_TLS_CERT_FILE";
export const TLS_KEY_SETTING = "RAGMETER_TLS_KEY_FILE";

/** The certificate (chain) file and its key file, both PEM. */
export interface TlsFiles {
  readonly certFile: string;
  readonly keyFile: string;
}

/** What a server is given: the files' bytes, checked, and what the log says of the certificate. */
export interface TlsMaterial {
  readonly cert: Buffer;
  readonly key: Buffer;
  /** The leaf certificate's subject, its end of validity and its SHA-256 fingerprint. */
  readonly subject: string;
  readonly validTo: string;
  readonly fingerprint256: string;
}

/** A TLS setting is wrong: one message per setting, each naming it. */
export class TlsSettingsError extends RagmeterError {
  override readonly name = "TlsSettingsError";
  /** `SETTING: what is wrong`, one per issue. */
  readonly issues: readonly string[];
  constructor(issues: readonly string[]) {
    super(issues.join("; "), { code: "config" });
    this.issues = issues;
  }
}

/**
 * The files to serve TLS with, from the two settings' values: null when neither is set (plain HTTP).
 * @throws TlsSettingsError when only one is set
 */
export function tlsFilesOf(certFile: string | undefined, keyFile: string | undefined): TlsFiles | null {
  if (certFile === undefined && keyFile === undefined) return null;
  if (certFile === undefined) throw new TlsSettingsError([`${TLS_CERT_SETTING}: required with ${TLS_KEY_SETTING} (a certificate and its key)`]);
  if (keyFile === undefined) throw new TlsSettingsError([`${TLS_KEY_SETTING}: required with ${TLS_CERT_SETTING} (a certificate and its key)`]);
  return { certFile, keyFile };
}

const errorCode = (err: unknown): string => (err as NodeJS.ErrnoException).code ?? (err as Error).message;

/**
 * Reads and checks the files: each readable, the certificate a PEM certificate, the key an
 * unencrypted PEM private key, the key the certificate's.
 * @throws TlsSettingsError naming the setting of each file that is wrong
 */
export function readTlsMaterial(files: TlsFiles): TlsMaterial {
  const issues: string[] = [];
  const read = (setting: string, file: string): Buffer | null => {
    try {
      return readFileSync(file);
    } catch (err) {
      issues.push(`${setting}: cannot read ${file}: ${errorCode(err)}`);
      return null;
    }
  };
  const cert = read(TLS_CERT_SETTING, files.certFile);
  const key = read(TLS_KEY_SETTING, files.keyFile);
  const x509 = cert === null ? null : parseCertificate(cert, files.certFile, issues);
  const keyOk = key !== null && isPrivateKey(key, files.keyFile, issues);
  if (x509 !== null && keyOk && key !== null && cert !== null) checkPair(x509, cert, key, files, issues);
  if (issues.length > 0 || x509 === null || cert === null || key === null) throw new TlsSettingsError(issues);
  return { cert, key, subject: x509.subject.replace(/\n/gu, ", "), validTo: x509.validTo, fingerprint256: x509.fingerprint256 };
}

/** The certificate in a PEM file, or null (the issue recorded). */
function parseCertificate(cert: Buffer, file: string, issues: string[]): X509Certificate | null {
  try {
    if (!cert.toString("latin1").includes("-----BEGIN CERTIFICATE-----")) throw new Error("no BEGIN CERTIFICATE block");
    return new X509Certificate(cert);
  } catch (err) {
    issues.push(`${TLS_CERT_SETTING}: ${file} is not a PEM certificate (${(err as Error).message})`);
    return null;
  }
}

/** Whether the file holds an unencrypted PEM private key (else the issue recorded). */
function isPrivateKey(key: Buffer, file: string, issues: string[]): boolean {
  try {
    createPrivateKey(key);
    return true;
  } catch (err) {
    issues.push(`${TLS_KEY_SETTING}: ${file} is not an unencrypted PEM private key (${(err as Error).message})`);
    return false;
  }
}

/** The key is the certificate's and the two can serve TLS (else the issue recorded). */
function checkPair(x509: X509Certificate, cert: Buffer, key: Buffer, files: TlsFiles, issues: string[]): void {
  if (!x509.checkPrivateKey(createPrivateKey(key))) {
    issues.push(`${TLS_KEY_SETTING}: ${files.keyFile} is not the key of the certificate in ${files.certFile} (${TLS_CERT_SETTING})`);
    return;
  }
  try {
    createSecureContext({ cert, key });
  } catch (err) {
    issues.push(`${TLS_CERT_SETTING}: ${files.certFile} with ${files.keyFile} cannot serve TLS (${(err as Error).message})`);
  }
}

/** A server whose certificate can be replaced while it runs (`tls.Server`, `https.Server`). */
export interface SecureContextHolder {
  setSecureContext(options: { cert: Buffer; key: Buffer }): void;
}

/** How long after the last change of a file it is read again (a renewal writes both files, maybe in steps). */
const RELOAD_SETTLE_MS = 200;

/**
 * Serves `server` the files' certificate again whenever either changes: the folders holding them
 * are watched (a file replaced by a rename, as certificate tools and mounted secrets do, is seen
 * too), and after a change settles the files are read, checked and, when they differ from what is
 * served, set on the server (new connections get them; open ones keep theirs). A file that fails
 * the check is logged, naming its setting, and the previous certificate stays.
 * @returns `close()` stopping the watch
 */
export function reloadTlsOnChange(server: SecureContextHolder, files: TlsFiles, served: TlsMaterial, logger: Logger | PinoLogger): { close(): void } {
  const log = pinoOf(logger);
  let current = served;
  let timer: NodeJS.Timeout | undefined;
  const names = new Set([path.basename(files.certFile), path.basename(files.keyFile)]);
  const reload = (): void => {
    timer = undefined;
    let next: TlsMaterial;
    try {
      next = readTlsMaterial(files);
    } catch (err) {
      log.warn({ error: (err as Error).message }, "TLS certificate not reloaded, still serving the previous one");
      return;
    }
    if (next.cert.equals(current.cert) && next.key.equals(current.key)) return;
    server.setSecureContext({ cert: next.cert, key: next.key });
    current = next;
    log.info({ subject: next.subject, valid_to: next.validTo, fingerprint256: next.fingerprint256 }, "TLS certificate reloaded");
  };
  const changed = (_event: string, name: string | Buffer | null): void => {
    // a rename of the folder's entries (Kubernetes' `..data` link swap) names another entry: read anyway, the bytes decide
    if (name !== null && !names.has(String(name)) && !String(name).startsWith("..")) return;
    clearTimeout(timer);
    timer = setTimeout(reload, RELOAD_SETTLE_MS);
    timer.unref();
  };
  const watchers: FSWatcher[] = [];
  for (const dir of new Set([path.dirname(path.resolve(files.certFile)), path.dirname(path.resolve(files.keyFile))])) {
    try {
      const w = watch(dir, { persistent: false }, changed);
      w.on("error", (err) => log.warn({ error: err.message, folder: dir }, "TLS certificate folder no longer watched: a renewed certificate needs a restart"));
      watchers.push(w);
    } catch (err) {
      log.warn({ error: errorCode(err), folder: dir }, "TLS certificate folder cannot be watched: a renewed certificate needs a restart");
    }
  }
  return {
    close() {
      clearTimeout(timer);
      for (const w of watchers) w.close();
    },
  };
}
