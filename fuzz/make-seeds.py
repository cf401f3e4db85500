#!/usr/bin/env python3
"""Writes the committed seed corpora under fuzz/corpus/<target>/ (run from anywhere; idempotent)."""
import base64, hashlib, os, re, struct

HERE = os.path.dirname(os.path.abspath(__file__))
PROTOCOL = os.path.join(HERE, "..", "docs", "protocol.md")

def put(target, name, data):
    path = os.path.join(HERE, "corpus", target)
    os.makedirs(path, exist_ok=True)
    with open(os.path.join(path, name), "wb") as f:
        f.write(data if isinstance(data, bytes) else data.encode())

def frame(opcode, payload, fin=True, mask=None, rsv=0):
    head = bytes([(0x80 if fin else 0) | rsv | opcode])
    bit = 0x80 if mask else 0
    n = len(payload)
    if n < 126: head += bytes([bit | n])
    elif n <= 0xFFFF: head += bytes([bit | 126]) + struct.pack(">H", n)
    else: head += bytes([bit | 127]) + struct.pack(">Q", n)
    if mask:
        payload = bytes(b ^ mask[i % 4] for i, b in enumerate(payload))
        head += mask
    return head + payload

# Real frames: the one-line JSON examples of protocol.md plus the multi-line hello-ok and pairing error, joined.
frames = []
text = open(PROTOCOL).read()
for block in re.findall(r"```json\n(.*?)```", text, re.S):
    current = ""
    for line in block.splitlines():
        if line.startswith("{") and current:
            frames.append(current); current = ""
        current += line.strip() if current else line
    if current: frames.append(current)
frames = [f.replace("…", "x") for f in frames if f.startswith('{"type"')]
frames += [
    '{"type":"res","id":"2","ok":true,"payload":{"type":"hello-ok","protocol":3,"server":{"version":"1"},'
    '"auth":{"deviceToken":"dt_secret","role":"operator","scopes":["operator.read"]},"policy":{"tickIntervalMs":15000}}}',
    '{"type":"event","event":"x","payload":{"password":"p","nested":[{"apiKey":"k","privateKeyPem":"-----BEGIN"}]}}',
    '{"type":"res","id":"3","ok":false,"error":{"code":"UNAVAILABLE","message":"busy","retryable":true,"retryAfterMs":250,"details":{"code":"X"}}}',
]

# 1: WebSocket frames. Byte 0 picks role (bit 0: 1 = server, expects masked), limit (bits 1-3), connection mode (bit 7);
# byte 1 seeds the chunking.
M = b"\x37\xfa\x21\x3d"
ws = {
    "text-hello": frame(1, b"Hello"),
    "rfc-fragments": frame(1, b"Hel", fin=False) + frame(0, b"lo"),
    "ping-in-fragments": frame(1, b"Hel", fin=False) + frame(9, b"hi") + frame(0, b"lo"),
    "binary-256": frame(2, bytes(range(256))),
    "len16": frame(2, b"x" * 300),
    "len64": bytes([0x82, 127]) + struct.pack(">Q", 70000) + b"y" * 16,
    "close-1000": frame(8, struct.pack(">H", 1000) + b"bye"),
    "close-empty": frame(8, b""),
    "pong": frame(10, b"p"),
    "utf8-split": frame(1, "é€😀".encode()[:3], fin=False) + frame(0, "é€😀".encode()[3:]),
    "bad-utf8": frame(1, b"\xc3\x28"),
    "reserved": frame(1, b"a", rsv=0x40),
    "frame-line": frame(1, frames[0].encode()),
}
for name, data in ws.items():
    put("websocket", name + "-client", bytes([0x0A, 7]) + data)           # client role, limit 1000
    put("websocket", name + "-conn", bytes([0x8C, 3]) + data)             # connection, client role, limit 65536
    masked = b""
    # Re-encode as client-sent (masked) frames for the server role by re-parsing our own simple frames.
    i = 0
    while i + 2 <= len(data):
        b0, b1 = data[i], data[i + 1]
        n = b1 & 0x7F; j = i + 2
        if n == 126: n = struct.unpack(">H", data[j:j + 2])[0]; j += 2
        elif n == 127: n = struct.unpack(">Q", data[j:j + 8])[0]; j += 8
        payload = data[j:j + n]
        masked += frame(b0 & 0x0F, payload, fin=bool(b0 & 0x80), mask=M, rsv=b0 & 0x70)
        i = j + n
    put("websocket", name + "-server", bytes([0x0B, 5]) + masked)

# 2: JSON.
json_seeds = frames + [
    '[1,-0.5e10,1E+2,0.0,-0,"\\u00e9\\ud83d\\ude00\\n",true,false,null,{},[]]',
    '{"a":1,"a":2,"b":{"c":[{"d":"e"}]}}',
    '"\\"\\\\\\/\\b\\f\\n\\r\\t"',
    '  123456789012345678901234567890  ',
    '{"type":"event","event":"tick","seq":9223372036854775807,"ok":true,"payload":[1,{"x":null}]}',
    "[" * 40 + "]" * 40,
]
for k, s in enumerate(json_seeds): put("json", "seed-%02d" % k, s)
# Pairs split by a NUL byte: the harness learns the first frame's layout, then reads the second through it.
json_pairs = [
    ('{"type":"event","event":"chat","payload":{"runId":"r1","sessionKey":"main","seq":1,"state":"delta",'
     '"message":{"role":"assistant","content":[{"type":"text","text":"Hel"}],"timestamp":1795953465765},"deltaText":"Hel"},"seq":1}',
     '{"type":"event","event":"chat","payload":{"runId":"r2","sessionKey":"agent:a","seq":-12,"state":"final",'
     '"message":{"role":"assistant","content":[{"type":"text","text":"Hello \\u00e9\\n"}],"timestamp":1.5e3},"deltaText":"\u00e9"},"seq":22}'),
    ('{"type":"res","id":"1","ok":true,"payload":{"seq":[1,2],"seq":3,"token":"t"}}',
     '{"type":"res","id":"x\\y","ok":true,"payload":{"seq":[7,8],"seq":"9","token":"u"}}'),
    ('{"seq":"a","seq":1,"type":"req","id":"7","method":"chat.send","params":{}}',
     '{"seq":"b","seq":2,"type":"req","id":"8","method":"chat.abort","params":{}}'),
]
for k, (a, b) in enumerate(json_pairs): put("json", "pair-%02d" % k, a + "\0" + b)

# 3: JSON5 configs.
json5_seeds = [
    '// openclaw.json\n{\n  gateway: {\n    mode: "remote",\n    remote: { url: \'wss://gw.example:18789\', token: "${OPENCLAW_TOKEN}" },\n  },\n}\n',
    '{ /* block */ a: 0x1F, b: +.5, c: 5., d: -0xff, e: \'it\\\'s\', f: "line\\\ncontinued", g: [1,2,], }',
    '{ $id_1: "\\x41\\v\\0", \\u0061b: 1, "quoted": null, \'single\': true }',
    '\ufeff{ "a": "\u2028\u2029", b:\u00a0[ ] }',
    '{ agents: { defaults: { model: { primary: "anthropic/claude" }, timeoutSeconds: 600 } } }',
    '[Infinity, NaN]',
    '"\\u{1F600}"',
]
for k, s in enumerate(json5_seeds): put("json5", "seed-%02d" % k, s)

# 4: command lines, NUL-separated.
cmds = [
    "history --session main -n 20 -o json", "send -s main hello world", "watch --raw --events chat,agent",
    "call health", "call chat.history {\"sessionKey\":\"main\"} --expect-final", "--url ws://127.0.0.1:18789 --token t status",
    "-qs main send -- -not-a-flag", "help watch", "--version", "-V", "completion bash", "hsitory", "send --timeout=1.5 x",
    "history --limit=abc", "watch --since 5 --max-events 3", "-n5 history", "call --batch", "--trace --raw history",
]
for k, c in enumerate(cmds): put("args", "seed-%02d" % k, "\0".join(c.split(" ")))

# 5: frames (mode 0), upgrade responses (mode 3), upgrade requests + frames (mode 4).
for k, f in enumerate(frames): put("frames", "frame-%02d" % k, b"\x00" + f.encode())
key = "dGhlIHNhbXBsZSBub25jZQ=="
accept = base64.b64encode(hashlib.sha1((key + "258EAFA5-E914-47DA-95CA-C5AB0DC85B11").encode()).digest()).decode()
put("frames", "upgrade-101", b"\x03" + ("HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
    "Sec-WebSocket-Accept: %s\r\n\r\n" % accept).encode() + frame(1, frames[0].encode()))
put("frames", "upgrade-401", b"\x03" + b"HTTP/1.1 401 Unauthorized\r\nContent-Length: 0\r\n\r\n")
put("frames", "upgrade-ext", b"\x03" + ("HTTP/1.1 101 OK\r\nupgrade: WebSocket\r\nconnection: keep-alive, upgrade\r\n"
    "sec-websocket-accept: %s\r\nSec-WebSocket-Extensions: permessage-deflate\r\n\r\n" % accept).encode())
request = ("GET /ws HTTP/1.1\r\nHost: 127.0.0.1:18789\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
           "Sec-WebSocket-Key: %s\r\nSec-WebSocket-Version: 13\r\n\r\n" % key).encode()
put("frames", "accept-frames", b"\x04" + request + b"".join(frame(1, f.encode(), mask=M) for f in frames[:4]))
# 0xFF: a long streamed string, its first part (the split byte says how long) known from the frame before.
for name, split, text in [("long-plain", 5, b"hello world"), ("long-escape", 3, b"ab\\n\\u00e9cd"),
                          ("long-utf8", 2, "x\u00e9\U0001F600y".encode()), ("long-pair", 1, b"\\ud83d\\ude00z"),
                          ("long-quote", 4, b'abc\\"", "secret": "x')]:
    put("frames", name, b"\xff" + bytes([split]) + text)
put("frames", "accept-close", b"\x04" + request + frame(9, b"hi", mask=M) + frame(8, struct.pack(">H", 1001), mask=M))
put("frames", "accept-bad", b"\x04" + b"POST / HTTP/1.0\r\nUpgrade: h2c\r\n\r\n")
