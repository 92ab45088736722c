"""What pyproject.toml cannot say: the one namespace, and the optional C scanner of the JSON form's store.

The checkout keeps `core/`, `gui/` and `resources/` at its top; installed, they are `wsi_inspector.core`,
`wsi_inspector.gui` and `wsi_inspector.resources`, so nothing generic lands in site-packages (issue 29). The editable
install (`pip install -e .`, .ci/setup) maps the same names onto the checkout's folders.

`optional=True`: where there is no C compiler the build goes on without it, and the loader measures
each input in Python (core/session/store_scan.py says which way ran).
"""
from setuptools import Extension, find_packages, setup

TOPS = ('core', 'gui', 'resources')
PACKAGES = [f"wsi_inspector.{name}" for name in find_packages(include=[f"{top}*" for top in TOPS]) if name.split(".")[0] in TOPS]

setup(packages=PACKAGES, package_dir={f"wsi_inspector.{top}": top for top in TOPS},
      ext_modules=[Extension("wsi_inspector.core.session._store_scan", ["core/session/_store_scan.c"], optional=True)])
