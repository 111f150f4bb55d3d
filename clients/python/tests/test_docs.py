"""The documentation's Python runs as written: the README example against a fresh service, in a
folder holding conversation.wav, with the command the README gives; the same example in
docs/python.md; and the webhook receiver of docs/python.md, answering a signed delivery 204 and a
forged one 401."""
from __future__ import annotations

import os
import re
import socket
import subprocess
import sys
import tempfile
import time
import unittest
import urllib.error
import urllib.request
from pathlib import Path

from rapport import webhooks
from tests import _docs, _service

CLIENT_DIR = Path(__file__).resolve().parents[1]


class ReadmeTest(unittest.TestCase):
    def test_the_readme_example_runs_as_written_against_a_fresh_service(self) -> None:
        readme = (_service.ROOT / "README.md").read_text()
        code = _docs.readme_example()
        self.assertIn(code, (_service.ROOT / "docs" / "python.md").read_text(), "docs/python.md shows the same example")
        command = re.search(r"`(python3 example\.py)`", readme)
        assert command is not None, "the README says how to run example.py"
        fresh = _service.fresh()
        folder = fresh.wav.parent
        (folder / "example.py").write_text(code)
        env = {**os.environ, "RAPPORT_API_KEY": fresh.api_key, "RAPPORT_BASE_URL": fresh.url,
               "PYTHONPATH": str(CLIENT_DIR)}  # what `pip install ./clients/python` provides (tests/test_install.py)
        run = subprocess.run(command.group(1).split(), cwd=str(folder), env=env, capture_output=True, text=True, timeout=240)
        if run.returncode == 0:
            self.assertRegex(run.stdout, r"(?m)^# \S", "the result's Markdown is printed")
            self.assertRegex(run.stdout, r"(?m)^ent_\w+ ", "the people are listed")
        else:
            self.assertRegex(run.stderr, r"rapport\._errors\.JobFailedError: Job job_\w+ failed: \w+", run.stderr)
        self.assertRegex(run.stderr, rf"(?m)^{fresh.wav.stat().st_size} / {fresh.wav.stat().st_size} bytes$", "progress to the end")


class ReceiverTest(unittest.TestCase):
    def test_the_docs_receiver_accepts_a_signed_delivery_once_and_refuses_a_forged_one(self) -> None:
        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            port = s.getsockname()[1]
        path = Path(tempfile.mkdtemp(prefix="rapport-hook-")) / "receiver.py"
        path.write_text(_docs.docs_receiver())
        secret = "whsec_docs_receiver_test"
        env = {**os.environ, "RAPPORT_SIGNING_SECRET": secret, "PORT": str(port), "PYTHONPATH": str(CLIENT_DIR)}
        proc = subprocess.Popen([sys.executable, str(path)], env=env, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
        self.addCleanup(proc.wait)
        self.addCleanup(proc.kill)
        url = f"http://127.0.0.1:{port}/hook"
        body = b'{"id":"evt_1","type":"matching.completed","createdAt":"t","timestamp":"t","data":{"jobId":"job_1"}}'

        def post(signature: str) -> int:
            request = urllib.request.Request(url, data=body, method="POST",
                                             headers={"Content-Type": "application/json", "service-signature": signature})
            try:
                with urllib.request.urlopen(request, timeout=5) as res:
                    return int(res.status)
            except urllib.error.HTTPError as err:
                return err.code

        deadline = time.monotonic() + 15
        while True:
            try:
                socket.create_connection(("127.0.0.1", port), timeout=1).close()
                break
            except OSError:
                if time.monotonic() > deadline or proc.poll() is not None:
                    raise
                time.sleep(0.05)
        self.assertEqual(post(webhooks.sign(body, secret)), 204)
        self.assertEqual(post(webhooks.sign(body, secret)), 204, "a redelivery is answered too")
        self.assertEqual(post(webhooks.sign(body, "whsec_forger")), 401)
        proc.kill()
        out = proc.communicate()[0] if proc.stdout else ""
        self.assertEqual(out.splitlines(), ["matching.completed job_1", "refused: no_matching_signature"])


if __name__ == "__main__":
    unittest.main()
