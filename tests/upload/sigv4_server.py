#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""A small S3-like endpoint that checks AWS Signature Version 4 on every request with its
own implementation (hashlib/hmac, written from AWS's description, sharing no code with gsys),
plus fake credential endpoints (ECS/EKS container credentials and EC2 IMDSv2).

Used by test_upload.py, which imports it and runs it in a thread on 127.0.0.1, port 0:

  S3:        PUT /BUCKET/KEY, POST /BUCKET/KEY?uploads, PUT ...?partNumber=N&uploadId=ID,
             POST ...?uploadId=ID, DELETE ...?uploadId=ID (path style only)
  inspect:   GET /__object/BUCKET/KEY (unsigned), GET /__log (one JSON line per S3 request)
  container: GET /container/creds   (requires the Authorization token it was given)
  IMDSv2:    PUT /latest/api/token, GET /latest/meta-data/iam/security-credentials/[ROLE]

A request whose signature, payload hash, Content-MD5, scope or session token is wrong gets
403 with an S3 <Error> body (SignatureDoesNotMatch, XAmzContentSHA256Mismatch, BadDigest,
InvalidToken, AuthorizationHeaderMalformed, InvalidAccessKeyId).
"""
import base64
import hashlib
import hmac
import http.server
import json
import threading
import urllib.parse


def _hmac(key, msg):
    return hmac.new(key, msg.encode(), hashlib.sha256).digest()


def signing_key(secret, date, region, service):
    k = _hmac(("AWS4" + secret).encode(), date)
    k = _hmac(k, region)
    k = _hmac(k, service)
    return _hmac(k, "aws4_request")


def canonical_uri(raw_path):
    # S3 encodes the path once; re-encode what we decode so the client's encoding is checked.
    return urllib.parse.quote(urllib.parse.unquote(raw_path), safe="/~")


def canonical_query(raw_query):
    pairs = urllib.parse.parse_qsl(raw_query, keep_blank_values=True)
    enc = sorted((urllib.parse.quote(k, safe="~"), urllib.parse.quote(v, safe="~")) for k, v in pairs)
    return "&".join(f"{k}={v}" for k, v in enc)


def expected_signature(method, raw_path, raw_query, headers, signed, payload_hash, amz_date,
                       scope, secret):
    lines = []
    for name in signed:
        values = headers.get_all(name) or []
        lines.append(name + ":" + ",".join(" ".join(v.split()) for v in values))
    creq = "\n".join([method, canonical_uri(raw_path), canonical_query(raw_query),
                      "\n".join(lines) + "\n", ";".join(signed), payload_hash])
    sts = "\n".join(["AWS4-HMAC-SHA256", amz_date, scope,
                     hashlib.sha256(creq.encode()).hexdigest()])
    date, region, service, _ = scope.split("/")
    return hmac.new(signing_key(secret, date, region, service), sts.encode(),
                    hashlib.sha256).hexdigest()


class State:
    def __init__(self, access_key, secret, region="us-east-1", token=""):
        self.keys = {access_key: (secret, token)}  # access key -> (secret, session token)
        self.region = region
        self.objects = {}      # (bucket, key) -> bytes
        self.uploads = {}      # upload id -> {part number: bytes}
        self.log = []          # one dict per S3 request
        self.fail_next = 0     # answer this many S3 requests with 503 SlowDown first
        self.drop_next = 0     # close this many S3 connections before reading the body
        self.container_token = "Bearer container-auth-token"
        self.issued = {"AccessKeyId": "ASIAFAKEISSUED", "SecretAccessKey": "issued-secret-Zq81",
                       "Token": "issued-session-token-77", "Expiration": "2099-01-01T00:00:00Z"}
        self.imds_token = "imds-session-token-91"
        self.lock = threading.Lock()

    def issue(self):
        self.keys[self.issued["AccessKeyId"]] = (self.issued["SecretAccessKey"], self.issued["Token"])
        return json.dumps(self.issued)


class Handler(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    state = None  # set by serve()

    def log_message(self, *args):
        pass

    def _send(self, status, body=b"", headers=()):
        self.send_response(status)
        for k, v in headers:
            self.send_header(k, v)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def _error(self, status, code, message):
        body = (f"<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<Error><Code>{code}</Code>"
                f"<Message>{message}</Message><RequestId>0</RequestId></Error>").encode()
        self._send(status, body, [("Content-Type", "application/xml")])

    def _body(self):
        n = int(self.headers.get("Content-Length") or 0)
        return self.rfile.read(n) if n else b""

    def _verify(self, body):
        """None if the request is correctly signed, else (code, message)."""
        auth = self.headers.get("Authorization", "")
        if not auth.startswith("AWS4-HMAC-SHA256 "):
            return ("AccessDenied", "missing SigV4 Authorization")
        fields = {}
        for part in auth[len("AWS4-HMAC-SHA256 "):].split(","):
            k, _, v = part.strip().partition("=")
            fields[k] = v
        try:
            access_key, date, region, service, term = fields["Credential"].split("/")
            signed = fields["SignedHeaders"].split(";")
            signature = fields["Signature"]
        except (KeyError, ValueError):
            return ("AuthorizationHeaderMalformed", "bad Authorization fields")
        st = self.state
        if access_key not in st.keys:
            return ("InvalidAccessKeyId", "unknown access key")
        secret, token = st.keys[access_key]
        amz_date = self.headers.get("x-amz-date", "")
        if region != st.region or service != "s3" or term != "aws4_request" or not amz_date.startswith(date):
            return ("AuthorizationHeaderMalformed", f"bad scope {date}/{region}/{service}")
        for required in ("host", "x-amz-date", "x-amz-content-sha256"):
            if required not in signed:
                return ("AccessDenied", f"{required} is not signed")
        if signed != sorted(signed):
            return ("AccessDenied", "signed headers not sorted")
        if token and (self.headers.get("x-amz-security-token") != token or "x-amz-security-token" not in signed):
            return ("InvalidToken", "the session token is missing or wrong")
        payload_hash = self.headers.get("x-amz-content-sha256", "")
        if payload_hash != hashlib.sha256(body).hexdigest():
            return ("XAmzContentSHA256Mismatch", "x-amz-content-sha256 is not the body's hash")
        md5 = self.headers.get("Content-MD5")
        if md5 is not None and md5 != base64.b64encode(hashlib.md5(body).digest()).decode():
            return ("BadDigest", "Content-MD5 does not match the body")
        path, _, query = self.path.partition("?")
        want = expected_signature(self.command, path, query, self.headers, signed, payload_hash,
                                  amz_date, f"{date}/{region}/{service}/aws4_request", secret)
        if not hmac.compare_digest(want, signature):
            return ("SignatureDoesNotMatch",
                    "The request signature we calculated does not match the signature you provided.")
        return None

    # ---- credential endpoints ----
    def _metadata(self):
        st = self.state
        if self.path == "/container/creds":
            if self.headers.get("Authorization") != st.container_token:
                return self._send(401, b"bad token")
            return self._send(200, st.issue().encode(), [("Content-Type", "application/json")])
        if self.path == "/latest/api/token" and self.command == "PUT":
            if not self.headers.get("X-aws-ec2-metadata-token-ttl-seconds"):
                return self._send(400, b"missing ttl")
            return self._send(200, st.imds_token.encode())
        if self.path.startswith("/latest/meta-data/iam/security-credentials/"):
            if self.headers.get("X-aws-ec2-metadata-token") != st.imds_token:
                return self._send(401, b"")
            role = self.path.rsplit("/", 1)[1]
            if not role:
                return self._send(200, b"gsys-test-role")
            if role != "gsys-test-role":
                return self._send(404, b"")
            doc = json.loads(st.issue())
            doc.update({"Code": "Success", "Type": "AWS-HMAC"})
            return self._send(200, json.dumps(doc).encode())
        return None

    def _handle(self):
        st = self.state
        if self.command in ("PUT", "POST") and not self.path.startswith(("/container/", "/latest/")):
            with st.lock:
                drop = st.drop_next > 0
                st.drop_next -= 1 if drop else 0
            if drop:  # the client sees a connection reset in the middle of its request
                self.close_connection = True
                self.connection.shutdown(2)
                return
        body = self._body()
        if self._metadata() is not None or self.path.startswith(("/container/", "/latest/")):
            return
        if self.command == "GET" and self.path.startswith("/__object/"):
            _, _, bucket, key = self.path.split("/", 3)
            data = st.objects.get((bucket, urllib.parse.unquote(key)))
            return self._send(200, data) if data is not None else self._send(404)
        if self.command == "GET" and self.path == "/__log":
            return self._send(200, "\n".join(json.dumps(e) for e in st.log).encode())
        path, _, query = self.path.partition("?")
        q = dict(urllib.parse.parse_qsl(query, keep_blank_values=True))
        parts = urllib.parse.unquote(path).lstrip("/").split("/", 1)
        if len(parts) != 2 or not parts[1]:
            return self._error(400, "InvalidRequest", "path style /bucket/key expected")
        bucket, key = parts
        with st.lock:
            st.log.append({"method": self.command, "key": key, "query": sorted(q), "bytes": len(body)})
            if st.fail_next > 0:
                st.fail_next -= 1
                return self._error(503, "SlowDown", "Please reduce your request rate.")
        problem = self._verify(body)
        if problem:
            return self._error(403, *problem)
        return self._s3(bucket, key, q, body)

    def _s3(self, bucket, key, q, body):
        st = self.state
        with st.lock:
            if self.command == "PUT" and "uploadId" in q:
                uid = q["uploadId"]
                if uid not in st.uploads:
                    return self._error(404, "NoSuchUpload", "no such upload")
                st.uploads[uid][int(q["partNumber"])] = body
                etag = '"' + hashlib.md5(body).hexdigest() + '"'
                return self._send(200, b"", [("ETag", etag)])
            if self.command == "PUT":
                st.objects[(bucket, key)] = body
                return self._send(200, b"", [("ETag", '"' + hashlib.md5(body).hexdigest() + '"')])
            if self.command == "POST" and "uploads" in q:
                uid = "upload-%d" % (len(st.uploads) + 1)
                st.uploads[uid] = {}
                xml = (f"<?xml version=\"1.0\"?><InitiateMultipartUploadResult><Bucket>{bucket}</Bucket>"
                       f"<Key>{key}</Key><UploadId>{uid}</UploadId></InitiateMultipartUploadResult>")
                return self._send(200, xml.encode())
            if self.command == "POST" and "uploadId" in q:
                parts = st.uploads.pop(q["uploadId"], None)
                if parts is None:
                    return self._error(404, "NoSuchUpload", "no such upload")
                listed = body.decode().count("<Part>")
                if listed != len(parts):
                    return self._error(400, "InvalidPart", f"{listed} parts listed, {len(parts)} uploaded")
                st.objects[(bucket, key)] = b"".join(parts[n] for n in sorted(parts))
                return self._send(200, b"<CompleteMultipartUploadResult><ETag>\"x-2\"</ETag></CompleteMultipartUploadResult>")
            if self.command == "DELETE" and "uploadId" in q:
                st.uploads.pop(q["uploadId"], None)
                return self._send(204)
        return self._error(400, "NotImplemented", "unsupported request")

    do_GET = do_PUT = do_POST = do_DELETE = _handle


def serve(state):
    """Starts the server on 127.0.0.1, port 0; returns (server, base URL)."""
    handler = type("BoundHandler", (Handler,), {"state": state})
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server, "http://127.0.0.1:%d" % server.server_address[1]
