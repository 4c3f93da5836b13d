// HEIC pixels: sharp's prebuilt libvips parses HEIF containers but has no HEVC decoder, so a HEIC
// file is decoded by heic-decode (libheif + libde265 as WebAssembly, from npm) in a worker thread
// of its own, bounded in memory and time. libheif applies the container's rotation and mirroring,
// so the pixels come back upright.
import fsp from 'node:fs/promises';
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import { PROJECT_ROOT } from '../project-root';

export interface RgbaImage {
  width: number;
  height: number;
  /** width x height x 4 bytes, RGBA. */
  pixels: Buffer;
}

const DECODE_TIMEOUT_MS = 60_000;
/** Found from the project root, not from this module: `npm run build` bundles this module into dist/. */
const HEIC_WORKER = path.join(PROJECT_ROOT, 'lib', 'media', 'heic-decode-worker.mjs');

/** The primary image of a HEIC file; rejects when it does not decode. Check the pixel limit from the header first. */
export async function decodeHeic(file: string): Promise<RgbaImage> {
  const bytes = await fsp.readFile(file);
  return new Promise((resolve, reject) => {
    const worker = new Worker(HEIC_WORKER, {
      workerData: { bytes },
      // 50 megapixels of RGBA are 200 MB inside the WebAssembly heap (not the JS heap).
      resourceLimits: { maxOldGenerationSizeMb: 128 },
      // libheif reports parse errors on the console; they become our error, not log noise.
      stdout: true,
      stderr: true,
    });
    worker.stdout.resume();
    worker.stderr.resume();
    let settled = false;
    const settle = (fn: () => void) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      fn();
    };
    const timer = setTimeout(() => {
      void worker.terminate();
      settle(() => reject(new Error('HEIC decode timed out')));
    }, DECODE_TIMEOUT_MS);
    worker.once('message', (m: { width: number; height: number; pixels: Uint8Array }) =>
      settle(() => resolve({ width: m.width, height: m.height, pixels: Buffer.from(m.pixels.buffer, m.pixels.byteOffset, m.pixels.byteLength) })),
    );
    worker.once('error', (err) => settle(() => reject(new Error(`HEIC does not decode: ${err.message}`))));
    worker.once('exit', (code) => settle(() => reject(new Error(`HEIC decoder exited with ${code}`))));
  });
}
