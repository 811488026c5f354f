"""nginx on loopback for the benchmark: a fast real server beside the Python test server (SPEC §7).

`Nginx.start(work, ca_file, files, install=...)` installs Debian's `nginx-light` with apt-get when `nginx`
is missing (and `install` says so), writes a configuration into `work/nginx/`, and serves `files`
({url path: local file}) over TLS on 127.0.0.1 only, with the test server's own certificate (the leaf
beside its `ca.pem`), so that the same `--ca-file` trusts both. One worker, `sendfile`, no access log.
It runs in the foreground (`daemon off`) as the benchmark's child and is stopped by `stop()`.
Standard library only.
"""

import os
import shutil
import socket
import subprocess
import time

LOOPBACK = "127.0.0.1"


def free_port():
    """A port that was free on 127.0.0.1 a moment ago (nginx cannot report one it chose itself)."""
    with socket.socket() as s:
        s.bind((LOOPBACK, 0))
        return s.getsockname()[1]


def ensure_installed(install, say):
    """The path of nginx, installing `nginx-light` with apt-get when asked; None when unavailable."""
    found = shutil.which("nginx") or ("/usr/sbin/nginx" if os.access("/usr/sbin/nginx", os.X_OK) else None)
    if found or not install:
        return found
    say("nginx is missing: installing the Debian package 'nginx-light' with apt-get (a second server for row 1)")
    env = dict(os.environ, DEBIAN_FRONTEND="noninteractive")
    for cmd in (["apt-get", "install", "-y", "--no-install-recommends", "nginx-light"], ["apt-get", "update"],
                ["apt-get", "install", "-y", "--no-install-recommends", "nginx-light"]):
        subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env)
        found = shutil.which("nginx") or ("/usr/sbin/nginx" if os.access("/usr/sbin/nginx", os.X_OK) else None)
        if found:
            # Where an init system runs, the package starts a system-wide nginx on port 80; this benchmark
            # wants only its own, on loopback.
            for stop in (["systemctl", "stop", "nginx"], ["service", "nginx", "stop"]):
                try:
                    subprocess.run(stop, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, timeout=30)
                except (OSError, subprocess.TimeoutExpired):
                    pass
            return found
    return None


CONFIG = """\
worker_processes 1;
daemon off;
master_process on;
pid {prefix}/nginx.pid;
error_log {prefix}/error.log warn;
events {{ worker_connections 512; }}
http {{
    access_log off;
    client_body_temp_path {prefix}/tmp;
    proxy_temp_path {prefix}/tmp;
    fastcgi_temp_path {prefix}/tmp;
    uwsgi_temp_path {prefix}/tmp;
    scgi_temp_path {prefix}/tmp;
    types {{ image/jpeg jpg; image/png png; image/gif gif; }}
    default_type application/octet-stream;
    sendfile on;
    keepalive_requests 100000;
    server {{
        listen {host}:{port} ssl{http2};
        ssl_certificate {cert};
        ssl_certificate_key {key};
        ssl_protocols TLSv1.2 TLSv1.3;
        root {root};
{locations}    }}
}}
"""


class Nginx:
    def __init__(self, proc, port, prefix):
        self.proc, self.port, self.prefix = proc, port, prefix

    @staticmethod
    def start(work, ca_file, files, install, say, name="nginx", http2=False, locations=()):
        """Starts nginx serving `files`; returns an Nginx, or (None, why) when it cannot run here.

        `name` is its folder under `work`; `http2` offers HTTP/2 by ALPN; `locations` are extra `location`
        blocks of the server (e.g. one with `gzip on`).
        """
        binary = ensure_installed(install, say)
        if not binary:
            return None, "nginx is not installed and apt-get could not install nginx-light"
        state = os.path.dirname(ca_file)
        cert, key = os.path.join(state, "leaf.pem"), os.path.join(state, "leaf.key")
        if not (os.path.exists(cert) and os.path.exists(key)):
            return None, f"the test server's leaf certificate is not beside {ca_file}"
        prefix = os.path.join(work, name)
        root = os.path.join(prefix, "root")
        os.makedirs(os.path.join(prefix, "tmp"), exist_ok=True)
        os.makedirs(root, exist_ok=True)
        # Started as root, nginx's worker drops to `nobody`: it must be able to pass through the work
        # directory (mkdtemp makes it 0700) to the files, without listing anything else there.
        os.chmod(work, 0o711)
        os.chmod(prefix, 0o755)
        os.chmod(root, 0o755)
        for path, source in files.items():
            target = os.path.join(root, path.lstrip("/"))
            os.makedirs(os.path.dirname(target), exist_ok=True)
            shutil.copyfile(source, target)
            os.chmod(target, 0o644)
        why = "nginx did not start"
        for _ in range(3):                       # a port taken between free_port() and nginx's bind: retry
            port = free_port()
            conf = os.path.join(prefix, "nginx.conf")
            with open(conf, "w") as f:
                f.write(CONFIG.format(prefix=prefix, host=LOOPBACK, port=port, cert=cert, key=key, root=root,
                                      http2=" http2" if http2 else "",
                                      locations="".join(f"        {block}\n" for block in locations)))
            log = open(os.path.join(prefix, "stderr.log"), "w")
            proc = subprocess.Popen([binary, "-p", prefix, "-c", conf], stdin=subprocess.DEVNULL,
                                    stdout=log, stderr=log)
            log.close()
            deadline = time.monotonic() + 10
            while time.monotonic() < deadline and proc.poll() is None:
                try:
                    with socket.create_connection((LOOPBACK, port), timeout=0.2):
                        return Nginx(proc, port, prefix), None
                except OSError:
                    time.sleep(0.05)
            if proc.poll() is None:
                proc.terminate()
                proc.wait(timeout=10)
            with open(os.path.join(prefix, "stderr.log")) as f:
                why = "nginx did not start: " + (f.read().strip()[-300:] or f"exit {proc.returncode}")
        return None, why

    def url(self, path):
        return f"https://{LOOPBACK}:{self.port}{path}"

    def stop(self):
        if self.proc.poll() is None:
            self.proc.terminate()                # SIGTERM: nginx's fast shutdown, master and worker
            try:
                self.proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(timeout=10)
