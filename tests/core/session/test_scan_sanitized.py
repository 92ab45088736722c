"""The C scan held to memory safety: built with AddressSanitizer and UBSan, its tests and a seeded fuzz run clean.

Python itself is not instrumented, so the child preloads the compiler's libasan; leaks are not
checked (the interpreter's own allocations would drown them). Skipped where the compiler has no
sanitizers; under a minute.
"""
from __future__ import annotations

import os
import shutil
import subprocess
import sys
import sysconfig
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[3]
INJECT = """
import importlib.util, sys
import wsi_inspector.core.session as parent  # the parents first: `import a.b.c as m` finds c as an attribute of a.b
spec = importlib.util.spec_from_file_location("wsi_inspector.core.session._store_scan", {path!r})
module = importlib.util.module_from_spec(spec)
spec.loader.exec_module(module)
sys.modules["wsi_inspector.core.session._store_scan"] = module
parent._store_scan = module
"""


def _sanitized_build(tmp_path: Path) -> tuple[Path, str] | None:
    """The extension built with -fsanitize=address,undefined, and the libasan to preload; None where gcc lacks them."""
    gcc = shutil.which("gcc")
    if gcc is None:
        return None
    libasan = subprocess.run([gcc, "-print-file-name=libasan.so"], capture_output=True, text=True).stdout.strip()
    if not os.path.isabs(libasan) or not os.path.exists(libasan):
        return None
    out = tmp_path / ("_store_scan" + sysconfig.get_config_var("EXT_SUFFIX"))
    flags = ["-shared", "-fPIC", "-O1", "-g", "-fno-omit-frame-pointer", "-fsanitize=address,undefined",
             "-fno-sanitize-recover=all", f"-I{sysconfig.get_paths()['include']}"]
    subprocess.run([gcc, *flags, str(ROOT / "core" / "session" / "_store_scan.c"), "-o", str(out)], check=True)
    return out, libasan


def test_the_scan_is_memory_safe_under_asan_and_ubsan(tmp_path):
    built = _sanitized_build(tmp_path)
    if built is None:
        pytest.skip("gcc with AddressSanitizer is not here")
    path, libasan = built
    env = dict(os.environ, LD_PRELOAD=libasan, ASAN_OPTIONS="detect_leaks=0:abort_on_error=0:exitcode=86",
               UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1:exitcode=87", PYTHONPATH=str(ROOT))
    check = INJECT.format(path=str(path)) + (
        "import wsi_inspector.core.session.store_scan as scan, wsi_inspector.core.session._store_scan as m; "
        "assert scan.BUILT and m.__file__ == " + repr(str(path)) + "; assert 'libasan' in open('/proc/self/maps').read()")
    fuzz = INJECT.format(path=str(path)) + "from tests.core.scan_fuzz import main; main(28, 20_000)"
    tests = INJECT.format(path=str(path)) + (
        "import pytest; sys.exit(pytest.main(['-q', '-x', '-s', '-p', 'no:cacheprovider', '-k', 'not every_number and not test_the_committed',"
        " 'tests/core/session/test_store_scan.py', 'tests/core/session/test_fast_find.py', 'tests/core/session/test_record_texts.py', 'tests/core/session/test_json_tokens.py']))")
    for script, says in ((check, ""), (fuzz, "fuzzed 20000 documents"), (tests, "passed")):
        done = subprocess.run([sys.executable, "-c", script], cwd=ROOT, env=env, capture_output=True, text=True, timeout=300)
        report = done.stdout[-3000:] + done.stderr[-6000:]
        assert done.returncode == 0, report
        assert "runtime error" not in done.stderr and "AddressSanitizer" not in done.stderr, report
        assert says in done.stdout, report
