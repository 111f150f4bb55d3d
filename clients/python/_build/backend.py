"""The package's own build backend (PEP 517, in-tree through ``backend-path``): it builds the wheel
and the sdist with the standard library alone, so that ``pip install ./clients/python`` needs
nothing from an index (setuptools, wheel) and works offline. The metadata comes from
``pyproject.toml``'s ``[project]`` table; the wheel holds the ``rapport`` package as it is, with
its ``py.typed``."""
from __future__ import annotations

import base64
import hashlib
import io
import os
import re
import tarfile
import zipfile
from pathlib import Path
from typing import Dict, List, Optional, Tuple

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = "rapport"


def _project() -> Dict[str, str]:
    """The [project] table's string fields (name, version, description, requires-python, readme)."""
    text = (ROOT / "pyproject.toml").read_text(encoding="utf-8")
    table = re.search(r"(?ms)^\[project\]\s*$(.*?)(?=^\[|\Z)", text)
    if table is None:
        raise RuntimeError("pyproject.toml has no [project] table")
    fields = dict(re.findall(r'(?m)^([A-Za-z-]+)\s*=\s*"([^"]*)"\s*$', table.group(1)))
    for key in ("name", "version"):
        if key not in fields:
            raise RuntimeError(f"pyproject.toml's [project] has no {key}")
    return fields


def _metadata(p: Dict[str, str]) -> str:
    lines = ["Metadata-Version: 2.1", f"Name: {p['name']}", f"Version: {p['version']}"]
    if "description" in p:
        lines.append(f"Summary: {p['description']}")
    if "requires-python" in p:
        lines.append(f"Requires-Python: {p['requires-python']}")
    lines += ["Classifier: Programming Language :: Python :: 3", "Classifier: Typing :: Typed"]
    readme = ROOT / p.get("readme", "README.md")
    if readme.exists():
        lines += ["Description-Content-Type: text/markdown", "", readme.read_text(encoding="utf-8")]
    return "\n".join(lines) + "\n"


def _package_files() -> List[Path]:
    return sorted(f for f in (ROOT / PACKAGE).rglob("*") if f.is_file() and "__pycache__" not in f.parts and f.suffix != ".pyc")


def _digest(data: bytes) -> str:
    return "sha256=" + base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()


def _write_wheel(directory: str, extra: List[Tuple[str, bytes]]) -> str:
    p = _project()
    dist = f"{p['name']}-{p['version']}"
    name = f"{dist}-py3-none-any.whl"
    info = f"{dist}.dist-info"
    entries: List[Tuple[str, bytes]] = [(f.relative_to(ROOT).as_posix(), f.read_bytes()) for f in _package_files()] + extra
    entries += [
        (f"{info}/METADATA", _metadata(p).encode()),
        (f"{info}/WHEEL", b"Wheel-Version: 1.0\nGenerator: rapport-backend\nRoot-Is-Purelib: true\nTag: py3-none-any\n"),
    ]
    record = "".join(f"{path},{_digest(data)},{len(data)}\n" for path, data in entries) + f"{info}/RECORD,,\n"
    with zipfile.ZipFile(os.path.join(directory, name), "w", zipfile.ZIP_DEFLATED) as whl:
        for path, data in entries + [(f"{info}/RECORD", record.encode())]:
            whl.writestr(zipfile.ZipInfo(path, date_time=(2020, 1, 1, 0, 0, 0)), data)
    return name


def get_requires_for_build_wheel(config_settings: Optional[Dict[str, str]] = None) -> List[str]:
    return []


def get_requires_for_build_sdist(config_settings: Optional[Dict[str, str]] = None) -> List[str]:
    return []


def get_requires_for_build_editable(config_settings: Optional[Dict[str, str]] = None) -> List[str]:
    return []


def build_wheel(wheel_directory: str, config_settings: Optional[Dict[str, str]] = None, metadata_directory: Optional[str] = None) -> str:
    return _write_wheel(wheel_directory, [])


def build_editable(wheel_directory: str, config_settings: Optional[Dict[str, str]] = None, metadata_directory: Optional[str] = None) -> str:
    """An editable install (PEP 660): a .pth file that puts the source folder on the path."""
    p = _project()
    dist = f"{p['name']}-{p['version']}"
    name = f"{dist}-py3-none-any.whl"
    info = f"{dist}.dist-info"
    entries = [
        (f"_{PACKAGE}_editable.pth", (str(ROOT) + "\n").encode()),
        (f"{info}/METADATA", _metadata(p).encode()),
        (f"{info}/WHEEL", b"Wheel-Version: 1.0\nGenerator: rapport-backend\nRoot-Is-Purelib: true\nTag: py3-none-any\n"),
    ]
    record = "".join(f"{path},{_digest(data)},{len(data)}\n" for path, data in entries) + f"{info}/RECORD,,\n"
    with zipfile.ZipFile(os.path.join(wheel_directory, name), "w", zipfile.ZIP_DEFLATED) as whl:
        for path, data in entries + [(f"{info}/RECORD", record.encode())]:
            whl.writestr(path, data)
    return name


def build_sdist(sdist_directory: str, config_settings: Optional[Dict[str, str]] = None) -> str:
    p = _project()
    dist = f"{p['name']}-{p['version']}"
    name = f"{dist}.tar.gz"
    files = _package_files() + [ROOT / "pyproject.toml", ROOT / "README.md", Path(__file__).resolve()]
    with tarfile.open(os.path.join(sdist_directory, name), "w:gz") as tar:
        for f in files:
            if f.exists():
                tar.add(str(f), arcname=f"{dist}/{f.relative_to(ROOT).as_posix()}")
        pkg_info = _metadata(p).encode()
        ti = tarfile.TarInfo(f"{dist}/PKG-INFO")
        ti.size = len(pkg_info)
        tar.addfile(ti, io.BytesIO(pkg_info))
    return name
