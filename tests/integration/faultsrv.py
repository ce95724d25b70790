#!/usr/bin/python3
"""faultsrv.py - a server that answers wrong, in one of the ways a lab's
URL can lead somewhere that is not vSphere's API, for the fault matrix
(test_vsphere.c every_wrong_server_answered, issue 56).

  faultsrv.py MODE CERT KEY

prints the port it listens on (127.0.0.1) and serves until its stdin
closes. Every request gets the mode's answer:

  silent-tcp  accepts and says nothing: no TLS handshake
  silent-tls  completes TLS, reads the request, never replies
  page        200 and a web page (a load balancer's, a portal's)
  404         404 with an HTML body, as a web server's default
  500html     500 with an HTML body (a proxy's error page), no SOAP fault
  503         503 Service Unavailable, every time (vpxd starting)
  close       a reply that promises 5000 bytes and closes after 100
  trickle     a status line, then a byte a second, never done
  redirect    302 to itself: a loop
  ok-tls      completes TLS and answers 404 (the certificate is the
              point: CERT names another host than the URL's)
"""
import socket
import ssl
import sys
import threading
import time

PAGE = (b"<!DOCTYPE html>\n<html><head><title>Welcome</title></head>"
        b"<body><h1>Welcome to the portal</h1></body></html>\n")


def reply(conn, status, body, ctype=b"text/html", extra=b""):
    conn.sendall(b"HTTP/1.1 " + status + b"\r\nContent-Type: " + ctype +
                 b"\r\nContent-Length: " + str(len(body)).encode() +
                 b"\r\n" + extra + b"\r\n" + body)


def read_request(conn):
    """the request's head and body, as far as Content-Length says"""
    data = b""
    while b"\r\n\r\n" not in data:
        chunk = conn.recv(65536)
        if not chunk:
            return None
        data += chunk
    head, _, body = data.partition(b"\r\n\r\n")
    length = 0
    for line in head.split(b"\r\n"):
        if line.lower().startswith(b"content-length:"):
            length = int(line.split(b":", 1)[1])
    while len(body) < length:
        chunk = conn.recv(65536)
        if not chunk:
            break
        body += chunk
    return head


def serve(conn, mode, port):
    try:
        while read_request(conn) is not None:
            if mode == "silent-tls":
                time.sleep(3600)
            elif mode == "page":
                reply(conn, b"200 OK", PAGE)
            elif mode in ("404", "ok-tls"):
                reply(conn, b"404 Not Found",
                      b"<html><body><h1>404 Not Found</h1></body></html>")
            elif mode == "500html":
                reply(conn, b"500 Internal Server Error",
                      b"<html><title>500 Internal Server Error</title>"
                      b"<body>upstream failed</body></html>")
            elif mode == "503":
                reply(conn, b"503 Service Unavailable",
                      b"<html><body>Service Unavailable</body></html>")
            elif mode == "close":
                conn.sendall(b"HTTP/1.1 200 OK\r\nContent-Type: text/xml"
                             b"\r\nContent-Length: 5000\r\n\r\n" +
                             b"<" * 100)
                return
            elif mode == "trickle":
                conn.sendall(b"HTTP/1.1 200 OK\r\nContent-Type: text/xml"
                             b"\r\nContent-Length: 100000\r\n\r\n")
                for _ in range(3600):
                    conn.sendall(b" ")
                    time.sleep(1)
            elif mode == "redirect":
                reply(conn, b"302 Found", b"",
                      extra=b"Location: https://127.0.0.1:%d/sdk\r\n" % port)
    except (OSError, ssl.SSLError):
        pass
    finally:
        conn.close()


def accept_loop(lsock, mode, ctx, port):
    while True:
        try:
            conn, _ = lsock.accept()
        except OSError:
            return
        if mode == "silent-tcp":
            # kept open, never read: the client's handshake waits
            accept_loop.held.append(conn)
            continue
        try:
            conn.settimeout(60)
            tls = ctx.wrap_socket(conn, server_side=True)
        except (OSError, ssl.SSLError):
            conn.close()
            continue
        threading.Thread(target=serve, args=(tls, mode, port),
                         daemon=True).start()


accept_loop.held = []


def main():
    mode, cert, key = sys.argv[1:4]
    ctx = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    ctx.load_cert_chain(cert, key)
    lsock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    lsock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    lsock.bind(("127.0.0.1", 0))
    lsock.listen(16)
    port = lsock.getsockname()[1]
    threading.Thread(target=accept_loop, args=(lsock, mode, ctx, port),
                     daemon=True).start()
    sys.stdout.write("%d\n" % port)  # one write: the test reads a line
    sys.stdout.flush()
    sys.stdin.read()  # until the test closes it


if __name__ == "__main__":
    main()
