"""The packaged Lifeline started as the quick start does, for the benchmark scripts (standard library only)."""
import json
import os
import socket
import subprocess
import time
import urllib.request
from datetime import timezone


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def rfc3339(t):
    return t.astimezone(timezone.utc).isoformat(timespec="milliseconds").replace("+00:00", "Z")


class Lifeline(object):
    def __init__(self, jar, workdir, *properties, ready_within=180):
        self.port = free_port()
        self.url = "http://127.0.0.1:%d" % self.port
        self.log = open(os.path.join(workdir, "lifeline.log"), "a")
        java = os.path.join(os.environ.get("JAVA_HOME", "/usr"), "bin", "java")
        if not os.path.exists(java):
            java = "java"
        launched = time.monotonic()
        self.proc = subprocess.Popen([java, "-Xmx1g", "-Dquarkus.http.port=%d" % self.port,
                                      "-Dlifeline.demo.enabled=false", "-Dlifeline.policies.default-mode=off",
                                      "-Dlifeline.policies.mode.notice-checkpoint-drain=on"] + list(properties)
                                     + ["-jar", os.path.abspath(jar)], cwd=workdir, stdout=self.log,
                                     stderr=subprocess.STDOUT)
        deadline = time.time() + ready_within
        while time.time() < deadline:
            try:
                with urllib.request.urlopen(self.url + "/q/health/ready", timeout=2) as r:
                    if r.status == 200:
                        # From the JVM's launch to the first 200, to a tenth of a second (the poll's period).
                        self.ready_seconds = time.monotonic() - launched
                        break
            except OSError:
                pass
            if self.proc.poll() is not None:
                raise SystemExit("Lifeline exited with %s; see %s" % (self.proc.returncode, self.log.name))
            time.sleep(0.1)
        else:
            raise SystemExit("Lifeline not ready within %d s" % ready_within)
        with open(os.path.join(workdir, ".lifeline", "admin-token")) as f:
            self.token = f.read().strip()

    def post(self, path, body, content_type="application/cloudevents-batch+json"):
        req = urllib.request.Request(self.url + path, data=json.dumps(body).encode(), method="POST",
                                     headers={"Authorization": "Bearer " + self.token, "Content-Type": content_type})
        with urllib.request.urlopen(req, timeout=20) as r:
            return json.loads(r.read() or b"{}")

    def stop(self):
        self.proc.terminate()
        try:
            self.proc.wait(60)
        except subprocess.TimeoutExpired:
            self.proc.kill()
        self.log.close()



    def get(self, path):
        req = urllib.request.Request(self.url + path, headers={"Authorization": "Bearer " + self.token})
        with urllib.request.urlopen(req, timeout=20) as r:
            return json.loads(r.read() or b"null")
