// listener-owner.ts over socket tables and counts written to files in the kernel's formats, for a real port: the
// count of sockets in use is read before the tables, so listeners opened in between (other programs come and go all
// the time) may push the one the client looks for past that many lines. The check must then read on rather than
// answer "none" (a running daemon taken for none, its answer computed in-process) or miss another user's listener;
// and it reads on only when something accepts a connection there.

import assert from 'node:assert/strict';
import { writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { describe, it } from 'node:test';
import { checkListener } from '../../src/client/listener-owner.js';
import { makeTempDir } from '../helpers/temp-tree.js';

const HEADER = '  sl  local_address rem_address   st tx_queue rx_queue tr tm->when retrnsmt   uid  timeout inode';
const OWN = process.geteuid?.() ?? 0;
const OTHER = OWN + 1;
/** 127.0.0.1:8080 as the tables spell it (little-endian words). */
const ELSEWHERE = '0100007F:1F90';
/** 127.0.0.1:`port` as the tables spell it. */
const at = (port: number) => `0100007F:${port.toString(16).toUpperCase().padStart(4, '0')}`;

const line = (n: number, local: string, state: string, uid: number) =>
  `  ${n}: ${local} 00000000:0000 ${state} 00000000:00000000 00:00000000 00000000  ${uid}        0 ${1000 + n} 1 0000000000000000 100 0 0 10 0`;

interface Tables {
  tcp: string[];
  /** `TCP: inuse N` of /proc/net/sockstat. */
  inUse: number;
}

async function sources(t: { after(fn: () => Promise<void>): void }, { tcp, inUse }: Tables) {
  const { dir, cleanup } = await makeTempDir('skillsd-listener-');
  t.after(cleanup);
  await writeFile(`${dir}/tcp`, `${[HEADER, ...tcp].join('\n')}\n`);
  await writeFile(`${dir}/tcp6`, `${HEADER}\n`);
  await writeFile(`${dir}/sockstat`, `sockets: used 9\nTCP: inuse ${inUse} orphan 0 tw 0 alloc 3 mem 0\n`);
  await writeFile(`${dir}/sockstat6`, 'TCP6: inuse 0\n');
  return {
    tables: [`${dir}/tcp`, `${dir}/tcp6`] as const,
    sockstat: [`${dir}/sockstat`, `${dir}/sockstat6`] as const,
  };
}

/** A port something of ours listens on (closed in `t.after`), or, `listening: false`, one nothing listens on. */
async function realPort(t: { after(fn: () => Promise<void>): void }, listening = true): Promise<number> {
  const server = createServer((socket) => socket.destroy());
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  const close = () => new Promise<void>((resolve) => server.close(() => resolve()));
  if (listening) t.after(close);
  else await close();
  return port;
}

describe('checkListener and listeners opened after the count', () => {
  it('finds the daemon behind more listeners than were counted', async (t) => {
    const port = await realPort(t);
    const tables = await sources(t, {
      inUse: 1,
      tcp: [line(0, ELSEWHERE, '0A', OWN), line(1, at(port), '0A', OWN), line(2, at(port), '01', OWN)],
    });
    assert.deepEqual(await checkListener(`http://127.0.0.1:${port}`, tables), { verdict: 'own' });
  });

  it('finds another user’s listener behind them', async (t) => {
    const port = await realPort(t);
    const tables = await sources(t, {
      inUse: 2,
      tcp: [line(0, ELSEWHERE, '0A', OWN), line(1, '0100007F:0016', '0A', 0), line(2, at(port), '0A', OTHER)],
    });
    assert.deepEqual(await checkListener(`http://127.0.0.1:${port}`, tables), {
      verdict: 'foreign',
      uid: OTHER,
      where: `127.0.0.1:${port}`,
    });
  });

  it('answers none when the whole listening head holds no listener there', async (t) => {
    const port = await realPort(t);
    const tables = await sources(t, {
      inUse: 1,
      tcp: [line(0, ELSEWHERE, '0A', OWN), line(1, '0100007F:0016', '0A', 0), line(2, ELSEWHERE, '01', OWN)],
    });
    assert.deepEqual(await checkListener(`http://127.0.0.1:${port}`, tables), { verdict: 'none' });
  });

  it('answers none without reading on when a connection there is refused', async (t) => {
    const port = await realPort(t, false);
    // The table, read to the end, would name a listener: the refused connection is what decides.
    const tables = await sources(t, {
      inUse: 1,
      tcp: [line(0, ELSEWHERE, '0A', OWN), line(1, at(port), '0A', OTHER)],
    });
    assert.deepEqual(await checkListener(`http://127.0.0.1:${port}`, tables), { verdict: 'none' });
  });
});
