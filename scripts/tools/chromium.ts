// Debian's Chromium, installed by `npm run setup` (apt-get) and driven by playwright-core in the
// docs page's browser test; playwright never downloads a browser here.
export const CHROMIUM_PATH = '/usr/bin/chromium';
