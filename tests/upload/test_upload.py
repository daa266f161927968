#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""End-to-end tests of `gsys upload` without a network (issue 7):

  s3rver   the npm s3rver package on 127.0.0.1 (random port): single PUT and multipart
           (5 MiB parts of a 12 MiB file), downloaded back and compared byte for byte
  verify   sigv4_server.py, an S3-like endpoint that checks SigV4 with its own code: right
           and wrong secrets, session tokens from the container endpoint and from IMDSv2,
           shared credential files, retries after 503, secrets never printed
  cli      file:// copies, bad arguments, unreachable endpoint, missing libcurl

  test_upload.py --gsys BIN [--suite s3rver|verify|cli] [unittest args]

s3rver comes from tests/upload/node_modules (tools/install_deps.sh runs `npm ci` there);
nothing is fetched during a test. Every gsys run gets a scrubbed environment: no proxy,
no real AWS settings, and IMDS disabled or pointed at the local fake.
"""
import argparse
import email.message
import hashlib
import os
import re
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import unittest
import urllib.request

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import sigv4_server  # noqa: E402

EXIT_USAGE, EXIT_NOT_FOUND, EXIT_UNSUPPORTED, EXIT_IO = 2, 3, 5, 6
GSYS = None
SECRETS = []  # every secret handed to gsys; none may appear in any output
ALL_OUTPUT = []


def run_gsys(args, env_extra, home):
    env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "HOME": home,
           "AWS_EC2_METADATA_DISABLED": "true", "LANG": "C"}
    for k, v in env_extra.items():
        if v is None:
            env.pop(k, None)
        else:
            env[k] = v
    for k in ("AWS_SECRET_ACCESS_KEY", "AWS_SESSION_TOKEN"):
        if env.get(k):
            SECRETS.append(env[k])
    proc = subprocess.run([GSYS, "upload", *args], capture_output=True, text=True, env=env, timeout=120)
    ALL_OUTPUT.append(proc.stdout + proc.stderr)
    return proc


def random_bytes(n, seed):
    out = bytearray()
    block = hashlib.sha256(seed.encode()).digest()
    while len(out) < n:
        block = hashlib.sha256(block).digest()
        out += block * 64
    return bytes(out[:n])


def free_port():
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()  # nothing listens there afterwards
    return port


class Scratch(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.mkdtemp(prefix="gsys-upload-")
        self.home = os.path.join(self.tmp, "home")
        os.makedirs(self.home)

    def tearDown(self):
        shutil.rmtree(self.tmp, ignore_errors=True)

    def write(self, name, data):
        path = os.path.join(self.tmp, name)
        with open(path, "wb") as f:
            f.write(data)
        return path

    def assertOneLineError(self, proc, code, *needles):
        self.assertEqual(proc.returncode, code, proc.stderr)
        errors = [l for l in proc.stderr.strip().splitlines() if "attempt" not in l or "failed:" in l]
        self.assertEqual(len(errors), 1, proc.stderr)
        for needle in needles:
            self.assertIn(needle, errors[0])


class S3rverTest(Scratch):
    """Against the s3rver package (checks the access key, not the signature)."""

    @classmethod
    def setUpClass(cls):
        binary = os.path.join(HERE, "node_modules", ".bin", "s3rver")
        if not os.path.exists(binary):
            raise RuntimeError("s3rver is not installed: run tools/install_deps.sh (npm ci in tests/upload)")
        cls.data = tempfile.mkdtemp(prefix="gsys-s3rver-")
        cls.log = open(os.path.join(cls.data, "s3rver.log"), "w+")
        cls.proc = subprocess.Popen([binary, "-d", os.path.join(cls.data, "d"), "-a", "127.0.0.1", "-p", "0",
                                     "--configure-bucket", "gsys-bucket"],
                                    stdout=cls.log, stderr=subprocess.STDOUT)
        deadline = time.time() + 30
        cls.port = None
        while time.time() < deadline and cls.port is None:
            time.sleep(0.1)
            cls.log.seek(0)
            m = re.search(r"listening on 127\.0\.0\.1:(\d+)", cls.log.read())
            cls.port = int(m.group(1)) if m else None
            if cls.proc.poll() is not None:
                break
        if cls.port is None:
            cls.tearDownClass()
            raise RuntimeError("s3rver did not start")

    @classmethod
    def tearDownClass(cls):
        cls.proc.terminate()
        cls.proc.wait(timeout=10)
        cls.log.close()
        shutil.rmtree(cls.data, ignore_errors=True)

    def env(self, **extra):
        e = {"AWS_ENDPOINT_URL": "http://127.0.0.1:%d" % self.port,
             "AWS_ACCESS_KEY_ID": "S3RVER", "AWS_SECRET_ACCESS_KEY": "S3RVER"}
        e.update(extra)
        return e

    def download(self, key):
        with urllib.request.urlopen("http://127.0.0.1:%d/gsys-bucket/%s" % (self.port, key), timeout=30) as r:
            return r.read()

    def s3rver_log(self):
        self.log.seek(0)
        return self.log.read()

    def test_single_put_round_trip(self):
        data = random_bytes(300_000, "single")
        path = self.write("host1-rank0.gsys-rep", data)
        proc = run_gsys([path, "s3://gsys-bucket/runs/single/"], self.env(), self.home)
        self.assertEqual(proc.returncode, 0, proc.stderr)
        self.assertEqual(self.download("runs/single/host1-rank0.gsys-rep"), data)
        self.assertNotIn("runs/single/host1-rank0.gsys-rep?uploadId", self.s3rver_log())

    def test_multipart_round_trip(self):
        data = random_bytes(12 << 20, "multipart")
        path = self.write("big.gsys-rep", data)
        proc = run_gsys([path, "s3://gsys-bucket/runs/multi"],
                        self.env(GSYS_UPLOAD_MULTIPART_THRESHOLD="8M", GSYS_UPLOAD_PART_SIZE="5M"), self.home)
        self.assertEqual(proc.returncode, 0, proc.stderr)
        got = self.download("runs/multi/big.gsys-rep")
        self.assertEqual(len(got), len(data))
        self.assertEqual(hashlib.sha256(got).hexdigest(), hashlib.sha256(data).hexdigest())
        log = self.s3rver_log()
        for part in (1, 2, 3):  # 5 + 5 + 2 MiB
            self.assertIn("Stored part %d of" % part, log)
        self.assertNotIn("Stored part 4 of", log)

    def test_small_parts_via_flags(self):
        data = random_bytes(1_000_001, "flags")
        path = self.write("flags.bin", data)
        proc = run_gsys(["--multipart-threshold", "100K", "--part-size", "256K", path, "s3://gsys-bucket/f/"],
                        self.env(), self.home)
        self.assertEqual(proc.returncode, 0, proc.stderr)
        self.assertEqual(self.download("f/flags.bin"), data)

    def test_unknown_access_key_is_a_clear_error(self):
        path = self.write("x.bin", b"x")
        proc = run_gsys([path, "s3://gsys-bucket/x/"], self.env(AWS_ACCESS_KEY_ID="NOSUCHKEY"), self.home)
        self.assertOneLineError(proc, EXIT_IO, "upload: s3://gsys-bucket/x/x.bin: PUT failed: HTTP 403",
                                "InvalidAccessKeyId")


class VerifyingServerTest(Scratch):
    """Against sigv4_server.py, which checks every signature independently."""

    def setUp(self):
        super().setUp()
        self.state = sigv4_server.State("AKIDGSYSTEST", "wJalrXUtnFEMI/GSYS+TEST/secretKEY")
        self.server, self.url = sigv4_server.serve(self.state)

    def tearDown(self):
        self.server.shutdown()
        self.server.server_close()
        super().tearDown()

    def env(self, **extra):
        e = {"AWS_ENDPOINT_URL_S3": self.url, "AWS_ACCESS_KEY_ID": "AKIDGSYSTEST",
             "AWS_SECRET_ACCESS_KEY": "wJalrXUtnFEMI/GSYS+TEST/secretKEY", "AWS_REGION": "us-east-1"}
        e.update(extra)
        return e

    def stored(self, key, bucket="gsys-bucket"):
        return self.state.objects.get((bucket, key))

    def test_server_matches_aws_published_example(self):
        # The S3 API reference's GET Object example: the checker itself is right.
        h = email.message.Message()
        for k, v in [("host", "examplebucket.s3.amazonaws.com"), ("range", "bytes=0-9"),
                     ("x-amz-content-sha256", hashlib.sha256(b"").hexdigest()),
                     ("x-amz-date", "20130524T000000Z")]:
            h[k] = v
        sig = sigv4_server.expected_signature(
            "GET", "/test.txt", "", h, ["host", "range", "x-amz-content-sha256", "x-amz-date"],
            hashlib.sha256(b"").hexdigest(), "20130524T000000Z", "20130524/us-east-1/s3/aws4_request",
            "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY")
        self.assertEqual(sig, "f0e8bdb87c964420e857bd35b5d6ed310bd44f0170aba48dd91039c6036bdb41")

    def test_signed_put_with_awkward_key(self):
        data = random_bytes(70_000, "put")
        path = self.write("rank 0+host$1.gsys-rep", data)
        proc = run_gsys([path, "s3://gsys-bucket/a b/ü/"], self.env(), self.home)
        self.assertEqual(proc.returncode, 0, proc.stderr)
        self.assertEqual(self.stored("a b/ü/rank 0+host$1.gsys-rep"), data)

    def test_signed_multipart(self):
        data = random_bytes(1_300_000, "mp")
        path = self.write("mp.gsys-rep", data)
        proc = run_gsys([path, "s3://gsys-bucket/mp/"],
                        self.env(GSYS_UPLOAD_MULTIPART_THRESHOLD="1M", GSYS_UPLOAD_PART_SIZE="512K"), self.home)
        self.assertEqual(proc.returncode, 0, proc.stderr)
        self.assertEqual(self.stored("mp/mp.gsys-rep"), data)
        methods = [(e["method"], tuple(e["query"])) for e in self.state.log]
        self.assertEqual(methods, [("POST", ("uploads",))] + [("PUT", ("partNumber", "uploadId"))] * 3 +
                         [("POST", ("uploadId",))])

    def test_wrong_secret_is_rejected(self):
        path = self.write("r.gsys-rep", b"report")
        proc = run_gsys([path, "s3://gsys-bucket/w/"], self.env(AWS_SECRET_ACCESS_KEY="not-the-right-secret-9"),
                        self.home)
        self.assertOneLineError(proc, EXIT_IO, "upload: s3://gsys-bucket/w/r.gsys-rep: PUT failed: HTTP 403",
                                "SignatureDoesNotMatch", "access key ...TEST from environment variables")
        self.assertIsNone(self.stored("w/r.gsys-rep"))
        self.assertEqual(len(self.state.log), 1)  # a 403 is not retried

    def test_wrong_secret_multipart_aborts(self):
        path = self.write("m.bin", random_bytes(300_000, "abort"))
        proc = run_gsys([path, "s3://gsys-bucket/w/"],
                        self.env(AWS_SECRET_ACCESS_KEY="also-wrong-secret-3", GSYS_UPLOAD_MULTIPART_THRESHOLD="1"),
                        self.home)
        self.assertEqual(proc.returncode, EXIT_IO, proc.stderr)
        self.assertIn("CreateMultipartUpload failed: HTTP 403 SignatureDoesNotMatch", proc.stderr)

    def test_retries_after_throttling(self):
        self.state.fail_next = 2
        path = self.write("t.bin", b"throttled")
        proc = run_gsys([path, "s3://gsys-bucket/t/"], self.env(), self.home)
        self.assertEqual(proc.returncode, 0, proc.stderr)
        self.assertEqual(self.stored("t/t.bin"), b"throttled")
        self.assertIn("attempt 1/5 failed (HTTP 503 SlowDown)", proc.stderr)
        self.assertEqual(len(self.state.log), 3)

    def test_retries_after_connection_reset(self):
        self.state.drop_next = 1
        data = random_bytes(2_000_000, "reset")
        path = self.write("reset.bin", data)
        proc = run_gsys([path, "s3://gsys-bucket/r/"], self.env(), self.home)
        self.assertEqual(proc.returncode, 0, proc.stderr)
        self.assertEqual(self.stored("r/reset.bin"), data)
        self.assertIn("PUT attempt 1/5 failed (", proc.stderr)

    def test_retries_are_bounded(self):
        self.state.fail_next = 100
        path = self.write("t.bin", b"x")
        proc = run_gsys([path, "s3://gsys-bucket/t/"], self.env(GSYS_UPLOAD_MAX_ATTEMPTS="3"), self.home)
        self.assertEqual(proc.returncode, EXIT_IO)
        self.assertIn("PUT failed: HTTP 503 SlowDown: Please reduce your request rate. (3 attempts)", proc.stderr)
        self.assertEqual(len(self.state.log), 3)

    def test_region_and_endpoint_flags(self):
        self.state.region = "eu-west-3"
        path = self.write("g.bin", b"region")
        wrong = run_gsys([path, "s3://gsys-bucket/g/"], self.env(), self.home)
        self.assertOneLineError(wrong, EXIT_IO, "AuthorizationHeaderMalformed")
        env = self.env(AWS_ENDPOINT_URL_S3="http://127.0.0.1:%d" % free_port())  # the flag wins
        ok = run_gsys(["--region", "eu-west-3", "--endpoint-url", self.url, path, "s3://gsys-bucket/g/"], env,
                      self.home)
        self.assertEqual(ok.returncode, 0, ok.stderr)
        self.assertEqual(self.stored("g/g.bin"), b"region")
        bad = run_gsys(["--endpoint-url", "ftp://x", path, "s3://gsys-bucket/g/"], env, self.home)
        self.assertOneLineError(bad, EXIT_USAGE, "--endpoint-url='ftp://x' is not an http:// or https:// URL")

    def test_session_token_from_environment(self):
        self.state.keys["ASIASESSION"] = ("session-secret-4", "session-token-5")
        path = self.write("s.bin", b"with token")
        ok = run_gsys([path, "s3://gsys-bucket/s/"], self.env(AWS_ACCESS_KEY_ID="ASIASESSION",
                      AWS_SECRET_ACCESS_KEY="session-secret-4", AWS_SESSION_TOKEN="session-token-5"), self.home)
        self.assertEqual(ok.returncode, 0, ok.stderr)
        bad = run_gsys([path, "s3://gsys-bucket/s/"], self.env(AWS_ACCESS_KEY_ID="ASIASESSION",
                       AWS_SECRET_ACCESS_KEY="session-secret-4", AWS_SESSION_TOKEN="stale-token-6"), self.home)
        self.assertOneLineError(bad, EXIT_IO, "InvalidToken")

    def test_container_credentials_endpoint(self):
        path = self.write("c.bin", b"container creds")
        no_env = {"AWS_ACCESS_KEY_ID": None, "AWS_SECRET_ACCESS_KEY": None}
        env = self.env(**no_env, AWS_CONTAINER_CREDENTIALS_RELATIVE_URI="/container/creds",
                       GSYS_UPLOAD_CONTAINER_CREDENTIALS_HOST=self.url,
                       AWS_CONTAINER_AUTHORIZATION_TOKEN=self.state.container_token)
        SECRETS.extend([self.state.issued["SecretAccessKey"], self.state.issued["Token"],
                        self.state.container_token])
        proc = run_gsys([path, "s3://gsys-bucket/c/"], env, self.home)
        self.assertEqual(proc.returncode, 0, proc.stderr)
        self.assertEqual(self.stored("c/c.bin"), b"container creds")
        token_file = self.write("token", (self.state.container_token + "\n").encode())
        full = self.env(**no_env, AWS_CONTAINER_CREDENTIALS_FULL_URI=self.url + "/container/creds",
                        AWS_CONTAINER_AUTHORIZATION_TOKEN_FILE=token_file)
        self.assertEqual(run_gsys([path, "s3://gsys-bucket/c2/"], full, self.home).returncode, 0)
        self.assertEqual(self.stored("c2/c.bin"), b"container creds")
        denied = run_gsys([path, "s3://gsys-bucket/c/"],
                          dict(env, AWS_CONTAINER_AUTHORIZATION_TOKEN="Bearer wrong"), self.home)
        self.assertOneLineError(denied, EXIT_IO, "container credentials endpoint answered HTTP 401")

    def test_instance_metadata_v2(self):
        path = self.write("i.bin", b"imds creds")
        SECRETS.extend([self.state.issued["SecretAccessKey"], self.state.issued["Token"]])
        env = self.env(AWS_ACCESS_KEY_ID=None, AWS_SECRET_ACCESS_KEY=None, AWS_EC2_METADATA_DISABLED=None,
                       AWS_EC2_METADATA_SERVICE_ENDPOINT=self.url)
        proc = run_gsys([path, "s3://gsys-bucket/i/"], env, self.home)
        self.assertEqual(proc.returncode, 0, proc.stderr)
        self.assertEqual(self.stored("i/i.bin"), b"imds creds")

    def test_shared_credentials_file_and_profile(self):
        os.makedirs(os.path.join(self.home, ".aws"))
        with open(os.path.join(self.home, ".aws", "credentials"), "w") as f:
            f.write("[default]\naws_access_key_id = AKIDWRONG\naws_secret_access_key = nope-secret-7\n"
                    "[ci]\naws_access_key_id = AKIDGSYSTEST\naws_secret_access_key = wJalrXUtnFEMI/GSYS+TEST/secretKEY\n")
        with open(os.path.join(self.home, ".aws", "config"), "w") as f:
            f.write("[profile ci]\nregion = us-east-1\n[default]\nregion = eu-west-3\n")
        SECRETS.append("nope-secret-7")
        path = self.write("p.bin", b"profile creds")
        env = self.env(AWS_ACCESS_KEY_ID=None, AWS_SECRET_ACCESS_KEY=None, AWS_REGION=None, AWS_PROFILE="ci")
        proc = run_gsys([path, "s3://gsys-bucket/p/"], env, self.home)
        self.assertEqual(proc.returncode, 0, proc.stderr)
        self.assertEqual(self.stored("p/p.bin"), b"profile creds")

    def test_no_credentials_anywhere(self):
        path = self.write("n.bin", b"n")
        env = self.env(AWS_ACCESS_KEY_ID=None, AWS_SECRET_ACCESS_KEY=None)
        proc = run_gsys([path, "s3://gsys-bucket/n/"], env, self.home)
        self.assertOneLineError(proc, EXIT_IO, "upload: s3://gsys-bucket/n/n.bin: no AWS credentials found")


class CliTest(Scratch):
    def test_file_destination_copies_every_file(self):
        a = self.write("a.gsys-rep", random_bytes(5000, "a"))
        b = self.write("b.json", b'{"summary": 1}')
        dest = os.path.join(self.tmp, "out", "nested")
        proc = run_gsys([a, b, "file://" + dest + "/"], {}, self.home)
        self.assertEqual(proc.returncode, 0, proc.stderr)
        for src in (a, b):
            with open(src, "rb") as f1, open(os.path.join(dest, os.path.basename(src)), "rb") as f2:
                self.assertEqual(f1.read(), f2.read())
        self.assertEqual(sorted(os.listdir(dest)), ["a.gsys-rep", "b.json"])  # no temporary left
        self.assertIn("uploaded", proc.stderr)
        quiet = run_gsys(["-q", a, "file://" + dest], {}, self.home)
        self.assertEqual((quiet.returncode, quiet.stderr), (0, ""))

    def test_missing_file_keeps_going_and_exits_3(self):
        a = self.write("a.bin", b"a")
        dest = os.path.join(self.tmp, "out")
        proc = run_gsys([os.path.join(self.tmp, "missing.bin"), a, "file://" + dest], {}, self.home)
        self.assertEqual(proc.returncode, EXIT_NOT_FOUND, proc.stderr)
        self.assertIn("upload: cannot read '%s/missing.bin'" % self.tmp, proc.stderr)
        self.assertTrue(os.path.exists(os.path.join(dest, "a.bin")))

    def test_usage_errors(self):
        a = self.write("a.bin", b"a")
        self.assertOneLineError(run_gsys([a], {}, self.home), EXIT_USAGE, "expected FILE... DEST")
        self.assertOneLineError(run_gsys([a, "s3:/bucket"], {}, self.home), EXIT_USAGE, "bad destination 's3:/bucket'")
        self.assertOneLineError(run_gsys([a, "file://relative/x"], {}, self.home), EXIT_USAGE, "must be absolute")
        self.assertOneLineError(run_gsys(["--part-size", "0", a, "file:///tmp/x"], {}, self.home), EXIT_USAGE,
                                "--part-size")
        self.assertOneLineError(run_gsys([a, "file:///tmp/x"], {"GSYS_UPLOAD_PART_SIZE": "huge"}, self.home),
                                EXIT_USAGE, "GSYS_UPLOAD_PART_SIZE")

    def test_help_documents_exit_codes(self):
        proc = run_gsys(["--help"], {}, self.home)
        self.assertEqual(proc.returncode, 0)
        for line in ("usage: gsys upload [options] FILE... DEST", "  5  libcurl is not installed", "--part-size"):
            self.assertIn(line, proc.stdout)

    def test_unreachable_endpoint_bounded_retries(self):
        a = self.write("a.bin", b"a")
        env = {"AWS_ENDPOINT_URL": "http://127.0.0.1:%d" % free_port(), "AWS_ACCESS_KEY_ID": "AKIDX",
               "AWS_SECRET_ACCESS_KEY": "unreachable-secret-8", "GSYS_UPLOAD_MAX_ATTEMPTS": "3"}
        proc = run_gsys([a, "s3://gsys-bucket/u/"], env, self.home)
        self.assertOneLineError(proc, EXIT_IO, "PUT failed: Couldn't connect to server", "(3 attempts)")
        self.assertEqual(proc.stderr.count("retrying in"), 2)

    def test_missing_libcurl(self):
        a = self.write("a.bin", b"a")
        env = {"GSYS_UPLOAD_LIBCURL": "/nonexistent/libcurl.so.4", "AWS_ACCESS_KEY_ID": "AKIDX",
               "AWS_SECRET_ACCESS_KEY": "libcurl-secret-9"}
        proc = run_gsys([a, "s3://gsys-bucket/u/"], env, self.home)
        self.assertOneLineError(proc, EXIT_UNSUPPORTED, "s3:// destinations need libcurl", "apt-get install libcurl4")
        # file:// does not need libcurl.
        ok = run_gsys([a, "file://" + os.path.join(self.tmp, "o")], env, self.home)
        self.assertEqual(ok.returncode, 0, ok.stderr)


class ZzSecretsTest(unittest.TestCase):
    """Runs last in its suite: no secret handed to gsys appeared in any output."""

    def test_no_secret_in_any_output(self):
        self.assertTrue(ALL_OUTPUT)
        for secret in set(SECRETS):
            for out in ALL_OUTPUT:
                self.assertNotIn(secret, out)


SUITES = {"s3rver": [S3rverTest], "verify": [VerifyingServerTest], "cli": [CliTest]}


def main():
    global GSYS
    ap = argparse.ArgumentParser()
    ap.add_argument("--gsys", required=True)
    ap.add_argument("--suite", choices=sorted(SUITES), action="append")
    args, rest = ap.parse_known_args()
    GSYS = os.path.abspath(args.gsys)
    loader = unittest.TestLoader()
    if rest:
        suite = loader.loadTestsFromNames(rest, sys.modules[__name__])
    else:
        suite = unittest.TestSuite()
        for name in args.suite or sorted(SUITES):
            for case in SUITES[name]:
                suite.addTests(loader.loadTestsFromTestCase(case))
    suite.addTests(loader.loadTestsFromTestCase(ZzSecretsTest))
    result = unittest.TextTestRunner(verbosity=1).run(suite)
    failed = len(result.failures) + len(result.errors)
    print("%d passed, %d failed" % (result.testsRun - failed, failed))
    sys.exit(0 if result.wasSuccessful() else 1)


if __name__ == "__main__":
    main()
