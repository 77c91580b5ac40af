"""Build wiring for the compiled core ``arbitru._core`` (sources in ``csrc/``).

Project metadata lives in ``pyproject.toml``; this file only declares the C extension, so that
``pip install -e .`` (or ``python setup.py build_ext --inplace``) compiles it with the system C compiler.
"""

import os
import tempfile
from glob import glob

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

try:
    from setuptools.errors import CompileError
except ImportError:  # older setuptools
    from distutils.errors import CompileError  # type: ignore[no-redef]


class BuildExt(build_ext):
    """Replace a built library instead of overwriting it: processes that have the old one loaded keep their
    mapping (overwriting a mapped .so in place crashes them). Compile for the machine it is built on
    (``-march=native``: the set-up builds on the user's machine) when the compiler accepts it, else for a
    portable x86-64 baseline, else with no -march at all; ``ARBITRU_PORTABLE=1`` skips ``-march=native``
    (for a wheel meant for other machines)."""

    def build_extensions(self) -> None:
        candidates = [["-march=native"], ["-march=x86-64-v2"], []]
        if os.environ.get("ARBITRU_PORTABLE"):
            candidates = candidates[1:]
        for flags in candidates:
            if not flags or self._accepts(flags):
                for ext in self.extensions:
                    ext.extra_compile_args = [*ext.extra_compile_args, *flags]
                break
        super().build_extensions()

    def _accepts(self, flags: list[str]) -> bool:
        with tempfile.TemporaryDirectory() as tmp:
            src = os.path.join(tmp, "probe.c")
            with open(src, "w") as f:
                f.write("int main(void) { return 0; }\n")
            try:
                self.compiler.compile([src], output_dir=tmp, extra_postargs=flags)
            except CompileError:
                return False
        return True

    def copy_file(self, infile, outfile, *args, **kwargs):  # type: ignore[no-untyped-def]
        if str(outfile).endswith((".so", ".pyd")) and os.path.isfile(outfile):
            os.unlink(outfile)
        return super().copy_file(infile, outfile, *args, **kwargs)


core = Extension(
    "arbitru._core",
    sources=sorted(glob("csrc/*.c")),
    depends=sorted(glob("csrc/*.h")),
    include_dirs=["csrc"],
    # -march is chosen by BuildExt (native when possible)
    extra_compile_args=["-O3", "-std=c11", "-fno-semantic-interposition", "-Wall", "-Wextra"],
)

setup(package_dir={"": "src"}, ext_modules=[core], cmdclass={"build_ext": BuildExt})
