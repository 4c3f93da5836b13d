// OpenSearch (issue 45), pinned, assembled from Maven Central's jars into
// .tools/opensearch-<version>/ by `npm run setup -- --only opensearch` (Maven resolves them; no
// release archive is downloaded): lib/ (the server and its dependencies, log4j-core added), and
// modules/ with the two modules the search index needs (transport-netty4: HTTP and transport;
// analysis-common), each with the plugin descriptor the distribution ships. Needs Java 17+
// (JAVA_HOME, else `java` on PATH) and Maven (`mvn`) once, at install time.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { javaHomeVariable, pathVariable } from '../../lib/config';
import { TOOLS_DIR } from '../../temporal/cli-path';
import { InstallError, runLogged } from './install-log';

export const OPENSEARCH_VERSION = '2.19.6';
/** log4j-core is not a Maven dependency of the server (the distribution ships it); this is the version its log4j-api has. */
const LOG4J_VERSION = '2.25.4';
export const OPENSEARCH_HOME = path.join(TOOLS_DIR, `opensearch-${OPENSEARCH_VERSION}`);
const MARKER = path.join(OPENSEARCH_HOME, '.complete');

const MODULES = [
  { name: 'transport-netty4', artifact: 'transport-netty4-client', classname: 'org.opensearch.transport.Netty4Plugin', description: 'Netty 4 based transport implementation' },
  { name: 'analysis-common', artifact: 'analysis-common', classname: 'org.opensearch.analysis.common.CommonAnalysisPlugin', description: 'Adds common analysis' },
] as const;

// The permissions the distribution's transport-netty4 policy grants (Netty opens and accepts sockets).
const NETTY_POLICY = `grant {
  permission java.io.FilePermission "/proc/sys/net/core/somaxconn", "read";
  permission java.net.SocketPermission "*", "accept,connect";
  permission java.lang.RuntimePermission "setContextClassLoader";
  permission java.lang.RuntimePermission "accessDeclaredMembers";
  permission java.lang.reflect.ReflectPermission "suppressAccessChecks";
  permission java.util.PropertyPermission "*", "read,write";
  permission java.lang.RuntimePermission "accessClassInPackage.sun.misc";
};
`;

export function opensearchInstalled(home = OPENSEARCH_HOME): boolean {
  return fs.existsSync(path.join(home, '.complete'));
}

/** `java` of JAVA_HOME, else on PATH; undefined when neither exists. */
export function findJava(): string | undefined {
  const home = javaHomeVariable();
  if (home && fs.existsSync(path.join(home, 'bin', 'java'))) return path.join(home, 'bin', 'java');
  for (const d of (pathVariable() ?? '').split(path.delimiter)) if (d && fs.existsSync(path.join(d, 'java'))) return path.join(d, 'java');
  return undefined;
}

/** The major version of a java binary (17 for "17.0.15"; `java -version` writes to stderr). */
export function javaMajor(java: string): number {
  const r = spawnSync(java, ['-version'], { encoding: 'utf8', timeout: 30_000 });
  const m = /version "(\d+)/.exec(`${r.stdout ?? ''}${r.stderr ?? ''}`);
  return m ? Number(m[1]) : 0;
}

const JAVA_HELP = 'OpenSearch needs Java 17 or newer: on Debian `apt-get install openjdk-17-jre-headless`, or set JAVA_HOME to a JDK 17+';

function pom(artifacts: { group: string; artifact: string; version: string }[]): string {
  const deps = artifacts.map((a) => `<dependency><groupId>${a.group}</groupId><artifactId>${a.artifact}</artifactId><version>${a.version}</version></dependency>`).join('');
  return `<project xmlns="http://maven.apache.org/POM/4.0.0"><modelVersion>4.0.0</modelVersion><groupId>local</groupId><artifactId>opensearch-tool</artifactId><version>1</version><packaging>pom</packaging><dependencies>${deps}</dependencies></project>`;
}

/** `mvn dependency:copy-dependencies` of these artifacts into `into` (the jars and what they need). */
function mavenCopy(work: string, artifacts: Parameters<typeof pom>[0], into: string): void {
  const dir = fs.mkdtempSync(path.join(work, 'pom-'));
  fs.writeFileSync(path.join(dir, 'pom.xml'), pom(artifacts));
  runLogged('mvn', ['-q', '-B', '-f', path.join(dir, 'pom.xml'), 'dependency:copy-dependencies', `-DoutputDirectory=${into}`], {
    what: `mvn dependency:copy-dependencies (${artifacts.map((a) => `${a.artifact}:${a.version}`).join(', ')})`,
  });
}

/** Installs the pinned OpenSearch into OPENSEARCH_HOME unless it is there; says what it did. */
export function installOpenSearch(): { state: 'present' | 'installed'; detail: string } {
  const java = findJava();
  if (!java) throw new InstallError(`no java found. ${JAVA_HELP}`, []);
  const major = javaMajor(java);
  if (major < 17) throw new InstallError(`${java} is Java ${major}. ${JAVA_HELP}`, []);
  const detail = `${path.relative(path.dirname(TOOLS_DIR), OPENSEARCH_HOME)} (OpenSearch ${OPENSEARCH_VERSION} from Maven Central; Java ${major} at ${java})`;
  if (opensearchInstalled()) return { state: 'present', detail };
  if (!(pathVariable() ?? '').split(path.delimiter).some((d) => d && fs.existsSync(path.join(d, 'mvn')))) {
    throw new InstallError('mvn (Apache Maven) is needed once to fetch the OpenSearch jars from Maven Central: apt-get install maven', []);
  }
  fs.mkdirSync(TOOLS_DIR, { recursive: true });
  const work = fs.mkdtempSync(path.join(TOOLS_DIR, '.opensearch-build-'));
  try {
    const home = path.join(work, 'home');
    const lib = path.join(home, 'lib');
    mavenCopy(work, [
      { group: 'org.opensearch', artifact: 'opensearch', version: OPENSEARCH_VERSION },
      { group: 'org.opensearch', artifact: 'opensearch-plugin-classloader', version: OPENSEARCH_VERSION },
      { group: 'org.apache.logging.log4j', artifact: 'log4j-core', version: LOG4J_VERSION },
    ], lib);
    const inLib = new Set(fs.readdirSync(lib));
    for (const m of MODULES) {
      const dir = path.join(home, 'modules', m.name);
      const all = path.join(work, `deps-${m.name}`);
      mavenCopy(work, [{ group: 'org.opensearch.plugin', artifact: m.artifact, version: OPENSEARCH_VERSION }], all);
      fs.mkdirSync(dir, { recursive: true });
      // A module holds only the jars the server's lib/ lacks (the same jar twice is jar hell to OpenSearch).
      for (const jar of fs.readdirSync(all)) if (!inLib.has(jar)) fs.copyFileSync(path.join(all, jar), path.join(dir, jar));
      fs.writeFileSync(path.join(dir, 'plugin-descriptor.properties'),
        [`description=${m.description}`, `version=${OPENSEARCH_VERSION}`, `name=${m.name}`, `classname=${m.classname}`, 'java.version=11', `opensearch.version=${OPENSEARCH_VERSION}`, ''].join('\n'));
      if (m.name === 'transport-netty4') fs.writeFileSync(path.join(dir, 'plugin-security.policy'), NETTY_POLICY);
    }
    // path.home must hold bin/ and plugins/ (OpenSearch checks that it can read them)
    fs.mkdirSync(path.join(home, 'bin'));
    fs.mkdirSync(path.join(home, 'plugins'));
    fs.writeFileSync(path.join(home, '.complete'), `${OPENSEARCH_VERSION}\n`);
    fs.rmSync(OPENSEARCH_HOME, { recursive: true, force: true });
    fs.renameSync(home, OPENSEARCH_HOME);
  } finally {
    fs.rmSync(work, { recursive: true, force: true });
  }
  if (!fs.existsSync(MARKER)) throw new InstallError('the OpenSearch install did not complete', []);
  return { state: 'installed', detail };
}
