#!/usr/bin/env node
// A plain Node client on `ws` (the WebSocket library the official CLI uses) doing what
// `openclaw history` and `openclaw watch --count N` do, for `make bench`'s side-by-side.
// Token-only connect (no device identity), as bench/pyclient.py; it parses each frame and prints its
// text as one line, like openclaw's NDJSON output, writing in 64 KB batches (its best case).
//
// usage: NODE_PATH=/usr/share/nodejs node nodeclient.js URL TOKEN history
//        NODE_PATH=/usr/share/nodejs node nodeclient.js URL TOKEN watch COUNT
'use strict';
const crypto = require('crypto');
const WebSocket = require('ws');

const [url, token, mode, countText] = process.argv.slice(2);
const count = Number(countText || 0);
const ws = new WebSocket(url, { maxPayload: 25 * 1024 * 1024, perMessageDeflate: false });
let stage = 'challenge';
let printed = 0;
let pending = [];
let pendingBytes = 0;

function fail(message) {
  process.stderr.write(`nodeclient: ${message}\n`);
  process.exit(1);
}

function print(text, last) {
  pending.push(text, '\n');
  pendingBytes += text.length + 1;
  if (!last && pendingBytes < 65536) return;
  const chunk = pending.join('');
  pending = [];
  pendingBytes = 0;
  if (last) process.stdout.write(chunk, () => process.exit(0));
  else process.stdout.write(chunk);
}

ws.on('error', (error) => fail(error.message));
ws.on('close', () => { if (stage !== 'done') fail('the gateway closed the connection'); });
ws.on('message', (data) => {
  const text = data.toString();
  const frame = JSON.parse(text); // validates, as openclaw does
  if (stage === 'challenge') {
    if (frame.event !== 'connect.challenge') fail('expected connect.challenge');
    ws.send(JSON.stringify({ type: 'req', id: '1', method: 'connect', params: {
      minProtocol: 3, maxProtocol: 4,
      client: { id: 'cli', displayName: 'nodeclient', version: '0', platform: 'linux', mode: 'cli',
                instanceId: crypto.randomUUID() },
      role: 'operator', scopes: ['operator.read', 'operator.write'], caps: [],
      auth: { token }, userAgent: 'nodeclient' } }));
    stage = 'connect';
  } else if (stage === 'connect') {
    if (frame.type !== 'res' || frame.id !== '1') return;
    if (!frame.ok) fail(`connect failed: ${JSON.stringify(frame.error)}`);
    stage = 'open';
    if (mode === 'history') {
      ws.send(JSON.stringify({ type: 'req', id: '2', method: 'chat.history', params: { sessionKey: 'main' } }));
    } else if (count <= 0) {
      stage = 'done';
      process.exit(0);
    }
  } else if (mode === 'history') {
    if (frame.type === 'res' && frame.id === '2') { stage = 'done'; print(text, true); }
  } else if (frame.type === 'event' && frame.event !== 'tick') {
    printed += 1;
    if (printed >= count) stage = 'done';
    print(text, printed >= count);
  }
});
