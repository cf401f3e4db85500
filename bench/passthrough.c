#define _GNU_SOURCE
/* The benchmark's floor for `watch` throughput: connect to the simulator, do the WebSocket
 * upgrade and the gateway handshake (token, no device), then copy the socket's bytes to
 * stdout unchanged until COUNT frames have arrived. No JSON parsing, no per-frame work
 * beyond reading the frame headers to know when to stop. */
#include <arpa/inet.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

static void die(const char *what) { perror(what); exit(1); }

static void send_all(int fd, const void *buf, size_t len) {
    const char *p = buf;
    while (len > 0) {
        ssize_t n = send(fd, p, len, MSG_NOSIGNAL);
        if (n <= 0) die("send");
        p += n; len -= (size_t)n;
    }
}

int main(int argc, char **argv) {
    if (argc != 4) { fprintf(stderr, "usage: passthrough PORT TOKEN COUNT\n"); return 2; }
    int port = atoi(argv[1]);
    const char *token = argv[2];
    long long want = atoll(argv[3]) + 2; /* + connect.challenge and hello-ok */

    int fd = socket(AF_INET, SOCK_STREAM, 0);
    struct sockaddr_in addr = { .sin_family = AF_INET, .sin_port = htons((uint16_t)port) };
    inet_pton(AF_INET, "127.0.0.1", &addr.sin_addr);
    if (connect(fd, (struct sockaddr *)&addr, sizeof addr) != 0) die("connect");
    int one = 1;
    setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);

    char request[512];
    int n = snprintf(request, sizeof request,
        "GET / HTTP/1.1\r\nHost: 127.0.0.1:%d\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
        "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n", port);
    send_all(fd, request, (size_t)n);

    static unsigned char buf[1 << 20];
    size_t have = 0;
    /* Skip the HTTP response. */
    for (;;) {
        ssize_t r = recv(fd, buf + have, sizeof buf - have, 0);
        if (r <= 0) die("recv upgrade");
        have += (size_t)r;
        unsigned char *end = memmem(buf, have, "\r\n\r\n", 4);
        if (end) { size_t used = (size_t)(end + 4 - buf); memmove(buf, buf + used, have - used); have -= used; break; }
    }

    /* The connect request, masked with an all-zero key (allowed: the payload is then unchanged). */
    char json[1024];
    int jlen = snprintf(json, sizeof json,
        "{\"type\":\"req\",\"id\":\"1\",\"method\":\"connect\",\"params\":{\"minProtocol\":3,\"maxProtocol\":4,"
        "\"client\":{\"id\":\"cli\",\"version\":\"bench\",\"platform\":\"linux\",\"mode\":\"cli\"},"
        "\"role\":\"operator\",\"scopes\":[\"operator.read\"],\"auth\":{\"token\":\"%s\"}}}", token);
    unsigned char header[8] = { 0x81, 0x80 | 126, (unsigned char)(jlen >> 8), (unsigned char)jlen, 0, 0, 0, 0 };
    send_all(fd, header, sizeof header);
    send_all(fd, json, (size_t)jlen);

    long long frames = 0;
    size_t need = 0; /* bytes of the current frame still to come */
    size_t offset = 0;
    for (;;) {
        /* Walk complete frame headers in the buffer. */
        while (frames < want || need > 0) {
            if (need > 0) {
                size_t take = have - offset < need ? have - offset : need;
                offset += take; need -= take;
                if (need > 0) break;
                continue;
            }
            if (frames >= want || have - offset < 2) break;
            unsigned char *h = buf + offset;
            size_t len = h[1] & 0x7f, hl = 2;
            if (len == 126) { if (have - offset < 4) break; len = (size_t)h[2] << 8 | h[3]; hl = 4; }
            else if (len == 127) {
                if (have - offset < 10) break;
                len = 0; for (int i = 2; i < 10; i++) len = len << 8 | h[i];
                hl = 10;
            }
            if (have - offset < hl) break;
            offset += hl; need = len; frames++;
            if (need == 0) continue;
        }
        if (fwrite(buf, 1, offset, stdout) != offset) die("write");
        memmove(buf, buf + offset, have - offset);
        have -= offset; offset = 0;
        if (frames >= want && need == 0) break;
        ssize_t r = recv(fd, buf + have, sizeof buf - have, 0);
        if (r <= 0) die("recv");
        have += (size_t)r;
    }
    fflush(stdout);
    return 0;
}
