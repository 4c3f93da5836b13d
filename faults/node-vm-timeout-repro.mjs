// `node faults/node-vm-timeout-repro.mjs`: aborts with "async hook stack has become corrupted" on
// Node 20.20 (E4; docs/upstream/node-vm-timeout-async-hooks.md). The Temporal SDK's workflow thread
// runs each activation, on a MessagePort message, in a vm context created with microtaskMode
// 'afterEvaluate' and run with a timeout (isolateExecutionTimeout), with AsyncLocalStorage entered.
// An activation whose microtasks outlast the timeout leaves async contexts that are never popped.
// Bounded: three messages, then the thread is ended.
import { AsyncLocalStorage } from 'node:async_hooks';
import vm from 'node:vm';
import { isMainThread, parentPort, Worker } from 'node:worker_threads';

if (isMainThread) {
  const w = new Worker(new URL(import.meta.url));
  w.on('exit', (code) => console.log('worker thread exited', code));
  w.on('message', (m) => console.log('thread:', m));
  for (let i = 0; i < 3; i++) w.postMessage(i);
  setTimeout(() => void w.terminate(), 3000);
} else {
  const als = new AsyncLocalStorage();
  const ctx = vm.createContext({ als }, { microtaskMode: 'afterEvaluate' });
  parentPort.on('message', (i) => {
    try {
      // 200 ms of microtask work inside two entered contexts, against a 50 ms timeout.
      vm.runInContext(
        'als.run({}, () => Promise.resolve().then(() => als.run({}, () => Promise.resolve().then(() => { const end = Date.now() + 200; while (Date.now() < end); }))))',
        ctx,
        { timeout: 50 },
      );
      parentPort.postMessage(`activation ${i} done`);
    } catch (e) {
      parentPort.postMessage(`activation ${i}: ${e.code}`);
    }
  });
}
