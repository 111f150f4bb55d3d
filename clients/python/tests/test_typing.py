"""`mypy --strict` (Debian's mypy) over the package, its tests, and the documentation's examples as
a user would type-check them, for Python 3.9. A machine without mypy fails here with the command
that installs it (.ci/run installs it when missing)."""
from __future__ import annotations

import shutil
import subprocess
import tempfile
import unittest
from pathlib import Path

from tests import _docs

CLIENT_DIR = Path(__file__).resolve().parents[1]


class TypingTest(unittest.TestCase):
    def test_mypy_strict_is_clean(self) -> None:
        mypy = shutil.which("mypy")
        self.assertIsNotNone(mypy, "mypy is missing: apt-get install -y mypy (.ci/run installs it)")
        assert mypy is not None
        examples = Path(tempfile.mkdtemp(prefix="rapport-mypy-"))
        (examples / "readme_example.py").write_text(_docs.readme_example())
        (examples / "webhook_receiver.py").write_text(_docs.docs_receiver())
        run = subprocess.run(
            [mypy, "--strict", "--python-version", "3.9", "--no-incremental", "rapport", "tests",
             str(examples / "readme_example.py"), str(examples / "webhook_receiver.py")],
            cwd=str(CLIENT_DIR), capture_output=True, text=True, timeout=300)
        self.assertEqual(run.returncode, 0, run.stdout + run.stderr)
        self.assertIn("Success: no issues found", run.stdout)


if __name__ == "__main__":
    unittest.main()
