// Fault suite only (F2, FAULT_KILL_AFTER_MEDIA_COPY; refused in production by lib/config/schema.ts): the
// worker process kills itself right after the media object is copied and before the draft row is
// written, once per submission (a marker file remembers it), so the retry must finish the job.
import fs from 'node:fs';
import path from 'node:path';
import type { PromotionHooks } from '../activities/promote-to-media-store';

export function killOncePerSubmission(dataDir: string): PromotionHooks {
  const dir = path.join(dataDir, 'faults');
  return {
    async afterMediaCopy(submissionId) {
      const marker = path.join(dir, `killed-after-copy-${submissionId}`);
      if (fs.existsSync(marker)) return;
      fs.mkdirSync(dir, { recursive: true });
      fs.writeFileSync(marker, '');
      process.kill(process.pid, 'SIGKILL');
    },
  };
}
