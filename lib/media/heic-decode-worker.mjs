// Runs in a worker thread (lib/media/heic.ts): decodes one HEIC file's primary image with
// libheif + libde265 compiled to WebAssembly (heic-decode). A thread of its own, so the synchronous
// decode never blocks the activity worker's event loop, and the WebAssembly heap (which never
// shrinks) is released when the thread ends. Plain JavaScript: it loads without a TypeScript loader.
import { parentPort, workerData } from 'node:worker_threads';
import decode from 'heic-decode';

const { width, height, data } = await decode({ buffer: workerData.bytes });
const pixels = new Uint8Array(data.buffer, data.byteOffset, data.byteLength);
parentPort.postMessage({ width, height, pixels }, [pixels.buffer]);
