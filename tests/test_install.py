"""A normal install works from any folder: build the wheel, install it into a fresh venv, use it.

One test, because building and installing take most of a minute: the wheel is built once from a
copy of the checkout, installed (with its dependencies, at the versions of constraints.txt) into
a new venv, and every check runs from a folder outside the checkout with no PYTHONPATH, so nothing
can be found through the working tree: only what the wheel ships.
"""
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

from tests.conftest import DEMO, ROOT

# "*.so": the checkout's own build of core/session/_store_scan.c; the wheel must compile its own.
NOT_SHIPPED = shutil.ignore_patterns(".git", ".venv", "build", "dist", "*.egg-info", "__pycache__", ".hypothesis", "shots", "*.so")


def run(command: list, cwd: Path, env: dict, timeout: int = 300) -> subprocess.CompletedProcess:
    return subprocess.run([str(c) for c in command], cwd=cwd, env=env, capture_output=True, text=True, timeout=timeout)


def test_the_wheel_installed_into_a_fresh_venv_works_from_any_folder(tmp_path):
    env = {k: v for k, v in os.environ.items()
           if k not in ("PYTHONPATH", "DISPLAY", "WAYLAND_DISPLAY", "QT_QPA_PLATFORM", "VIRTUAL_ENV")}
    env.update(HOME=str(tmp_path), WSI_LOG=str(tmp_path / "wsi.log"), PIP_DISABLE_PIP_VERSION_CHECK="1")
    source = tmp_path / "source"
    shutil.copytree(ROOT, source, ignore=NOT_SHIPPED)
    built = run([sys.executable, "-m", "pip", "wheel", "-q", "--no-deps", "-w", tmp_path / "dist", source], tmp_path, env)
    assert built.returncode == 0, built.stderr
    (wheel,) = (tmp_path / "dist").glob("worker_session_inspector-*.whl")
    venv = tmp_path / "venv"
    assert run([sys.executable, "-m", "venv", "--without-pip", venv], tmp_path, env).returncode == 0
    python, wsi = venv / "bin" / "python", venv / "bin" / "wsi"
    pip = [sys.executable, "-m", "pip", "--python", python]  # this pip, working on the new venv (no ensurepip)
    installed = run([*pip, "install", "-q", "--no-compile", "-c", ROOT / "constraints.txt", wheel], tmp_path, env, 600)
    assert installed.returncode == 0, installed.stderr
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()

    # The code and the demo come from the venv, not from the checkout; one msgpack, no jsonpatch.
    where = run([python, "-c", "import wsi_inspector.core.runner, wsi_inspector.gui, importlib.resources as r;"
                 "print(wsi_inspector.core.runner.__file__); print(wsi_inspector.gui.__file__); print(r.files('wsi_inspector.resources') / 'sessions' / 'demo.json')"],
                elsewhere, env)
    assert where.returncode == 0, where.stderr
    site = venv / "lib"
    for line in where.stdout.splitlines():
        assert Path(line).is_relative_to(site) and Path(line).exists(), line
    shipped_demo = Path(where.stdout.splitlines()[2])
    for absent in ("msgpack", "jsonpatch"):
        assert run([python, "-c", f"import {absent}"], elsewhere, env).returncode == 1, f"{absent} was installed"
    checked = run([*pip, "check"], elsewhere, env)
    assert checked.returncode == 0, checked.stdout

    # Where there is a C compiler, the wheel carries the store's C scan, and the CLI reads with it.
    scanner = run([python, "-c", "import wsi_inspector.core.session.store_scan as s; print(s.BUILT)"], elsewhere, env)
    assert scanner.stdout.strip() == str(bool(shutil.which("cc") or shutil.which("gcc"))), scanner.stderr
    manifest = run([wsi, "manifest", shipped_demo, "--json"], elsewhere, env)
    assert manifest.returncode == 0 and json.loads(manifest.stdout)["count"] > 0, manifest.stderr

    version = run([wsi, "--version"], elsewhere, env)
    assert (version.returncode, version.stdout) == (0, f"wsi {wheel.name.split('-')[1]}\n"), version.stderr

    # A body runs in the V8 guest (its prelude is package data) against the installed demo.
    body = elsewhere / "body.js"
    body.write_text('const r = inputs.last("mep.risers");\nreturn { two: 1 + 1, spacing: r.spacing };\n')
    ran = run([wsi, "run", shipped_demo, body, "--json"], elsewhere, env)
    assert ran.returncode == 0, ran.stderr

    # `wsi demo --copy` writes the demo and the example bodies (package data) out of the install.
    copied = run([wsi, "demo", "--copy", elsewhere / "tour"], elsewhere, env)
    assert copied.returncode == 0, copied.stderr
    assert {"demo.json", "ward-2.json", "b5-fixed.js", "typed.ts"} <= {p.name for p in (elsewhere / "tour").iterdir()}
    demo = json.loads(DEMO.read_text(encoding="utf-8"))
    spacing = [e for e in demo["store"] if e["call"] == "mep.risers.risers"][-1]["input"]["spacing"]
    assert json.loads(ran.stdout)["returned"] == {"two": 2, "spacing": spacing}

    # `wsi gui --screenshot` with no FILE opens the bundled demo.
    shot = elsewhere / "demo.png"
    pictured = run([wsi, "gui", "--screenshot", shot], elsewhere, env)
    assert pictured.returncode == 0, pictured.stderr
    assert f"demo.json, “{demo['session']['title']}”" in pictured.stdout
    assert shot.stat().st_size > 10_000

    # No display: one line and exit 2, not an abort.
    headless = run([wsi], elsewhere, env)
    assert headless.returncode == 2 and len(headless.stderr.splitlines()) == 1, headless.stderr
    assert "no display" in headless.stderr


def test_the_wheel_installs_one_top_level_name(tmp_path):
    """Nothing generic lands in site-packages (issue 29): the wheel holds `wsi_inspector/` and its dist-info only."""
    import zipfile
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV")}
    source = tmp_path / "source"
    shutil.copytree(ROOT, source, ignore=NOT_SHIPPED)
    built = run([sys.executable, "-m", "pip", "wheel", "-q", "--no-deps", "-w", tmp_path / "dist", source], tmp_path, env)
    assert built.returncode == 0, built.stderr
    (wheel,) = (tmp_path / "dist").glob("worker_session_inspector-*.whl")
    tops = {name.split("/")[0] for name in zipfile.ZipFile(wheel).namelist()}
    assert {t for t in tops if not t.endswith(".dist-info")} == {"wsi_inspector"}, sorted(tops)
