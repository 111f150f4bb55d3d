"""`pip install ./clients/python` offline: into a fresh virtual environment, with no index (the
package's own build backend, _build/backend.py, needs nothing from one), then imported from
there, outside the source tree, with its py.typed, and the README example run with that
environment's Python against a fresh service."""
from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
import unittest
from pathlib import Path

from tests import _docs, _service

CLIENT_DIR = Path(__file__).resolve().parents[1]


class InstallTest(unittest.TestCase):
    def test_pip_installs_the_package_offline_into_a_fresh_venv(self) -> None:
        python = sys.executable
        work = Path(tempfile.mkdtemp(prefix="rapport-install-"))
        self.addCleanup(shutil.rmtree, work, True)
        # The source is copied so that the build's egg-info and build/ folders stay out of the repository.
        source = work / "python"
        shutil.copytree(CLIENT_DIR, source, ignore=shutil.ignore_patterns("__pycache__", ".mypy_cache", "build", "*.egg-info"))
        venv = work / "venv"
        subprocess.run([python, "-m", "venv", str(venv)], check=True, timeout=120)
        # Build isolation on, as a plain `pip install` does: the backend's requirements are none.
        pip = subprocess.run([str(venv / "bin" / "python"), "-m", "pip", "install", "--no-index", "--no-deps", str(source)],
                             capture_output=True, text=True, timeout=300,
                             env={**os.environ, "PIP_NO_INDEX": "1", "PIP_FIND_LINKS": ""})
        self.assertEqual(pip.returncode, 0, pip.stdout + pip.stderr)
        check = subprocess.run([str(venv / "bin" / "python"), "-c",
                                "import os, rapport; d = os.path.dirname(rapport.__file__); "
                                "print(d); print(os.path.exists(os.path.join(d, 'py.typed'))); print(rapport.Rapport.__name__)"],
                               cwd=str(work), capture_output=True, text=True, timeout=60)
        self.assertEqual(check.returncode, 0, check.stderr)
        where, typed, name = check.stdout.split()
        self.assertTrue(where.startswith(str(venv)), where)
        self.assertEqual((typed, name), ("True", "Rapport"))
        fresh = _service.fresh()
        (fresh.wav.parent / "example.py").write_text(_docs.readme_example())
        env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
        run = subprocess.run([str(venv / "bin" / "python"), "example.py"], cwd=str(fresh.wav.parent), capture_output=True,
                             text=True, timeout=240, env={**env, "RAPPORT_API_KEY": fresh.api_key, "RAPPORT_BASE_URL": fresh.url})
        if run.returncode == 0:
            self.assertRegex(run.stdout, r"(?m)^ent_\w+ ")
        else:  # a job the engine cannot finish: the documented failure, from the installed package
            self.assertRegex(run.stderr, r"rapport\._errors\.JobFailedError: Job job_\w+ failed", run.stderr)


if __name__ == "__main__":
    unittest.main()
