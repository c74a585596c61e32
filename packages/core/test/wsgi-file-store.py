"""A file store on Python's wsgiref, a real HTTP server that does not decode chunked request bodies.

PUT /files/<name> stores the body as the WSGI application reads it: CONTENT_LENGTH bytes (PEP 3333); for a
chunked body, which wsgiref hands over undecoded, the raw bytes up to the last chunk, framing and all, as
Redmine under Ruby's `thin` stores them. GET /files/<name> answers the stored bytes. Listens on 127.0.0.1, on the port given (0: any
free one), and prints "listening <port>" once it accepts connections.
"""
import sys
from wsgiref.simple_server import WSGIRequestHandler, make_server

files = {}


def app(environ, start_response):
    path = environ.get("PATH_INFO", "")
    if not path.startswith("/files/"):
        start_response("404 Not Found", [("Content-Type", "application/json")])
        return [b"{}"]
    name = path[len("/files/"):]
    if environ["REQUEST_METHOD"] == "PUT":
        stream = environ["wsgi.input"]
        if environ.get("HTTP_TRANSFER_ENCODING", "").lower() == "chunked":
            lines = []
            while lines[-2:] != [b"0\r\n", b"\r\n"]:
                line = stream.readline()
                if not line:
                    break
                lines.append(line)
            files[name] = b"".join(lines)
        else:
            files[name] = stream.read(int(environ.get("CONTENT_LENGTH") or 0))
        body = ('{"name": "%s", "size": %d}' % (name, len(files[name]))).encode()
        start_response("201 Created", [("Content-Type", "application/json")])
        return [body]
    stored = files.get(name)
    if stored is None:
        start_response("404 Not Found", [("Content-Type", "application/json")])
        return [b"{}"]
    start_response("200 OK", [("Content-Type", "application/octet-stream")])
    return [stored]


class QuietHandler(WSGIRequestHandler):
    def log_message(self, *args):
        pass


server = make_server("127.0.0.1", int(sys.argv[1]) if len(sys.argv) > 1 else 0, app, handler_class=QuietHandler)
print("listening %d" % server.server_port, flush=True)
server.serve_forever()
