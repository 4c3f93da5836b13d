// Node alone (no Temporal, none of our code): the crash the signal flood led to (faults/signal-flood.ts).
// As the Temporal SDK runs a workflow activation, a worker thread gets a message and runs code in a vm
// context with its own microtask queue (microtaskMode 'afterEvaluate') under a timeout, with
// AsyncLocalStorage in use. When the timeout fires inside a promise reaction, Node 20 exits the whole
// process: "async hook stack has become corrupted". Bounded: 20 messages, 300 ms of work each.
// Run: node faults/node-vm-timeout-crash.mjs   (exit 1 and that line: the bug; "20 timeouts caught": none)
import { AsyncLocalStorage } from 'node:async_hooks';
import vm from 'node:vm';
import { isMainThread, parentPort, Worker } from 'node:worker_threads';

if (isMainThread) {
  const worker = new Worker(new URL(import.meta.url));
  let n = 0;
  const next = () => (n++ < 20 ? worker.postMessage(n) : void worker.terminate());
  worker.on('message', next);
  worker.on('exit', () => console.log(`${n - 1} timeouts caught; the process lives`));
  next();
} else {
  const als = new AsyncLocalStorage();
  const context = vm.createContext({ als }, { microtaskMode: 'afterEvaluate' });
  parentPort.on('message', () => {
    try {
      vm.runInContext('als.run(1, () => Promise.resolve().then(() => { const t = Date.now(); while (Date.now() - t < 300); }))', context, { timeout: 100 });
    } catch (err) {
      if (err.code !== 'ERR_SCRIPT_EXECUTION_TIMEOUT') throw err;
    }
    parentPort.postMessage('next');
  });
}
