#!/usr/bin/env python3
"""A plain Python `websockets` client doing what `openclaw history` and `openclaw watch --count N` do,
for `make bench`'s side-by-side. Token-only connect (no device identity), as protocol.md §3 allows a
local CLI client; it prints each frame's text as one line, like openclaw's NDJSON output.

usage: pyclient.py URL TOKEN history
       pyclient.py URL TOKEN watch COUNT
"""
import json, sys, uuid

from websockets.sync.client import connect


def handshake(ws, token):
    challenge = json.loads(ws.recv())
    if challenge.get("event") != "connect.challenge":
        sys.exit("pyclient: expected connect.challenge")
    ws.send(json.dumps({"type": "req", "id": "1", "method": "connect", "params": {
        "minProtocol": 3, "maxProtocol": 4,
        "client": {"id": "cli", "displayName": "pyclient", "version": "0", "platform": "linux",
                   "mode": "cli", "instanceId": str(uuid.uuid4())},
        "role": "operator", "scopes": ["operator.read", "operator.write"], "caps": [],
        "auth": {"token": token}, "userAgent": "pyclient"}}))
    while True:
        frame = json.loads(ws.recv())
        if frame.get("type") == "res" and frame.get("id") == "1":
            if not frame.get("ok"):
                sys.exit(f"pyclient: connect failed: {frame.get('error')}")
            return


def main():
    url, token, mode = sys.argv[1:4]
    out = sys.stdout
    with connect(url, max_size=25 * 1024 * 1024, compression=None) as ws:
        handshake(ws, token)
        if mode == "history":
            ws.send(json.dumps({"type": "req", "id": "2", "method": "chat.history", "params": {"sessionKey": "main"}}))
            while True:
                text = ws.recv()
                frame = json.loads(text)
                if frame.get("type") == "res" and frame.get("id") == "2":
                    out.write(text + "\n")
                    return
        count = int(sys.argv[4])
        printed = 0
        while printed < count:
            text = ws.recv()
            frame = json.loads(text)  # validates, as openclaw does
            if frame.get("type") == "event" and frame.get("event") != "tick":
                out.write(text + "\n")
                printed += 1


if __name__ == "__main__":
    main()
