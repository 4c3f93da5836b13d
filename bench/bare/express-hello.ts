// R1's baseline: a bare Express 5 app answering the same small JSON as GET /api/v1/health/live.
import express from 'express';

const app = express();
app.get('/api/v1/health/live', (_req, res) => {
  res.json({ status: 'ok', timestamp: new Date().toISOString(), uptime: process.uptime(), service: 'bare' });
});
const port = Number(process.argv[2] ?? 0);
app.listen(port, '127.0.0.1', () => console.log(`listening ${port}`));
