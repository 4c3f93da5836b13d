import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError } from '../../lib/config';
import { BUILD_INFO_FILE, deploymentOptionsOf } from '../../worker/versioning';

describe('worker deployment version', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'build-info-'));
  const codePath = path.join(dir, 'workflow-bundle.js');
  fs.writeFileSync(codePath, '// bundle');

  it('is off without WORKER_DEPLOYMENT_NAME, whatever the build says', () => {
    fs.writeFileSync(path.join(dir, BUILD_INFO_FILE), JSON.stringify({ buildId: 'b-1234', builtAt: '2026-11-24T00:00:00Z' }));
    expect(deploymentOptionsOf({}, { codePath })).toBeUndefined();
  });

  it('takes the build id the build wrote beside the bundle, or WORKER_BUILD_ID over it', () => {
    fs.writeFileSync(path.join(dir, BUILD_INFO_FILE), JSON.stringify({ buildId: 'b-1234', builtAt: '2026-11-24T00:00:00Z' }));
    expect(deploymentOptionsOf({ WORKER_DEPLOYMENT_NAME: 'intake' }, { codePath })).toEqual({
      version: { deploymentName: 'intake', buildId: 'b-1234' },
      useWorkerVersioning: true,
      defaultVersioningBehavior: 'AUTO_UPGRADE',
    });
    expect(deploymentOptionsOf({ WORKER_DEPLOYMENT_NAME: 'intake', WORKER_BUILD_ID: 'hotfix-2' }, { codePath })?.version.buildId).toBe('hotfix-2');
  });

  it('refuses to start versioned without a build id (a bundle made at start has none)', () => {
    expect(() => deploymentOptionsOf({ WORKER_DEPLOYMENT_NAME: 'intake' }, { code: '// bundled at start' })).toThrow(ConfigError);
    fs.rmSync(path.join(dir, BUILD_INFO_FILE));
    expect(() => deploymentOptionsOf({ WORKER_DEPLOYMENT_NAME: 'intake' }, { codePath })).toThrow(/npm run build/);
  });
});
