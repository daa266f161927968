# SPDX-License-Identifier: Apache-2.0
"""A small HTTP model server for the serving tests: every request to /req/ID is handled inside
one NVTX push/pop range named "req ID" (NVTX through ctypes, via the test NVTX shim that loads
NVTX_INJECTION64_PATH like libnvToolsExt does). GET /ping answers without a range.

usage: nvtx_http_server.py NVTX_SHIM PORT_FILE [EXIT_CODE_ON_SIGTERM]
Writes the port it listens on to PORT_FILE; exits with EXIT_CODE_ON_SIGTERM on SIGTERM."""
import ctypes
import http.server
import os
import signal
import sys
import time


class Handler(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    disable_nagle_algorithm = True  # no 40 ms delayed-ACK stalls on keep-alive
    nvtx = None

    def do_GET(self):
        if self.path.startswith("/req/"):
            name = ("req " + self.path[5:]).encode()
            self.nvtx.nvtxRangePushA(name)
            time.sleep(0.002)  # the "model": a short, known amount of work
            body = b"ok " + name + b"\n"
            self.nvtx.nvtxRangePop()
        elif self.path == "/ping":
            body = b"pong\n"
        else:
            self.send_error(404)
            return
        self.send_response(200)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args):
        pass


def main():
    shim, port_file = sys.argv[1], sys.argv[2]
    exit_code = int(sys.argv[3]) if len(sys.argv) > 3 else 0
    Handler.nvtx = ctypes.CDLL(shim)
    Handler.nvtx.nvtxRangePushA.argtypes = [ctypes.c_char_p]
    server = http.server.HTTPServer(("127.0.0.1", 0), Handler)

    def on_term(*_):
        sys.stdout.flush()
        os._exit(exit_code)

    signal.signal(signal.SIGTERM, on_term)
    tmp = port_file + ".tmp"
    with open(tmp, "w") as f:
        f.write(str(server.server_address[1]))
    os.rename(tmp, port_file)
    print("serving pid", os.getpid(), flush=True)
    server.serve_forever()


if __name__ == "__main__":
    main()
