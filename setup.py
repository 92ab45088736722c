"""The one thing pyproject.toml cannot say: the optional C scanner of the JSON form's store.

`optional=True`: where there is no C compiler the build goes on without it, and the loader measures
each input in Python (core/store_scan.py says which way ran).
"""
from setuptools import Extension, setup

setup(ext_modules=[Extension("core._store_scan", ["core/_store_scan.c"], depends=["core/_pow5_table.h"], optional=True)])
