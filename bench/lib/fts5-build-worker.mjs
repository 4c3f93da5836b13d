// Builds the FTS5 baseline file (bench/lib/fts5.ts) in a worker thread: better-sqlite3 is
// synchronous, and a build on the bench's own thread blocked its event loop for ~50 s at 1M, long
// enough for the API to close the bench's idle keep-alive sockets unnoticed (R9: "other side closed").
// Messages in: { rows } (a batch; answered { ack }) and { finish: true } (answered { done }).
import { parentPort, workerData } from 'node:worker_threads';
import Database from 'better-sqlite3';

const db = new Database(workerData.file);
db.pragma('journal_mode = OFF');
db.pragma('synchronous = OFF');
db.exec(`create virtual table docs using fts5(type unindexed, id unindexed, name, place, body, tokenize = 'unicode61')`);
const insert = db.prepare('insert into docs (type, id, name, place, body) values (?, ?, ?, ?, ?)');
const insertMany = db.transaction((rows) => {
  for (const r of rows) insert.run(r.type, r.id, r.name, r.place, r.body);
});
parentPort.on('message', (m) => {
  if (m.rows) {
    insertMany(m.rows);
    parentPort.postMessage({ ack: m.rows.length });
    return;
  }
  db.exec(`insert into docs (docs) values ('optimize')`);
  db.close();
  parentPort.postMessage({ done: true });
  parentPort.close();
});
