// promtool, which checks and unit tests the alert rules (ops/prometheus, test/ops/alert-rules.test.ts):
// Debian's `prometheus` package ships it; `npm run setup` installs it when missing (as root).
import { findBin } from './find-bin';

export const PROMTOOL_PATH = '/usr/bin/promtool';

/** promtool on PATH, else Debian's /usr/bin/promtool. */
export const findPromtool = (): string | undefined => findBin('promtool', PROMTOOL_PATH);
