"""Build wiring for the compiled core ``arbitru._core`` (sources in ``csrc/``).

Project metadata lives in ``pyproject.toml``; this file only declares the C extension, so that
``pip install -e .`` (or ``python setup.py build_ext --inplace``) compiles it with the system C compiler.
"""

from glob import glob

from setuptools import Extension, setup

core = Extension(
    "arbitru._core",
    sources=sorted(glob("csrc/*.c")),
    depends=sorted(glob("csrc/*.h")),
    include_dirs=["csrc"],
    # Portable x86-64 baseline with POPCNT/SSE4.2 (any x86-64 CPU since ~2009); never -march=native,
    # so a wheel built here runs on other machines.
    extra_compile_args=["-O3", "-std=c11", "-march=x86-64-v2", "-fno-semantic-interposition", "-Wall", "-Wextra"],
)

setup(package_dir={"": "src"}, ext_modules=[core])
