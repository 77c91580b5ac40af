"""Build wiring for the compiled core ``arbitru._core`` (sources in ``csrc/``).

Project metadata lives in ``pyproject.toml``; this file only declares the C extension, so that
``pip install -e .`` (or ``python setup.py build_ext --inplace``) compiles it with the system C compiler.
"""

import os
from glob import glob

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext


class BuildExt(build_ext):
    """Replace a built library instead of overwriting it: processes that have the old one loaded keep their
    mapping (overwriting a mapped .so in place crashes them)."""

    def copy_file(self, infile, outfile, *args, **kwargs):  # type: ignore[no-untyped-def]
        if str(outfile).endswith((".so", ".pyd")) and os.path.isfile(outfile):
            os.unlink(outfile)
        return super().copy_file(infile, outfile, *args, **kwargs)


core = Extension(
    "arbitru._core",
    sources=sorted(glob("csrc/*.c")),
    depends=sorted(glob("csrc/*.h")),
    include_dirs=["csrc"],
    # Portable x86-64 baseline with POPCNT/SSE4.2 (any x86-64 CPU since ~2009); never -march=native,
    # so a wheel built here runs on other machines.
    extra_compile_args=[
        "-O3", "-std=c11", "-march=x86-64-v2", "-fno-semantic-interposition", "-Wall", "-Wextra",
    ],
)

setup(package_dir={"": "src"}, ext_modules=[core], cmdclass={"build_ext": BuildExt})
