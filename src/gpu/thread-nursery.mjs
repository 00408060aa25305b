// The nursery thread (threads.ts): started before the host's thread lowers its priority, it starts the host's worker
// threads, which Linux then gives its priority instead. Each child talks to the host over the port it is handed
// (workerData.port); its errors come back here and go to the host by id.
import { parentPort, Worker } from 'node:worker_threads';

const children = new Map();
parentPort.on('message', (m) => {
  if (m.start) {
    const { id, entry, workerData, port } = m.start;
    const child = new Worker(new URL(entry), { workerData: { ...workerData, port }, transferList: [port] });
    children.set(id, child);
    child.on('error', (e) => parentPort.postMessage({ id, error: String(e?.stack ?? e) }));
    child.on('exit', () => children.delete(id));
  } else if (m.terminate !== undefined) {
    void children.get(m.terminate)?.terminate();
    children.delete(m.terminate);
  }
});
