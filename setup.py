"""Builds the extension module tfq._tfq by driving the project's CMake (python/CMakeLists.txt).

By default CMake configures and builds in a temporary directory with every core (-j$(nproc),
Release, no tests) and the directory is removed afterwards. TFQ_CMAKE_BUILD_DIR=DIR (relative to
the repository root) reuses an existing build directory instead, such as the Release build
scripts/test.sh makes in build/: only the module's own files are compiled, and the directory is
configured with TFQ_PYTHON=ON from then on. JOBS sets the build parallelism.
"""

import glob
import os
import shutil
import subprocess
import sys
import tempfile

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

ROOT = os.path.dirname(os.path.abspath(__file__))


class CMakeExtension(Extension):
    def __init__(self, name):
        super().__init__(name, sources=[])


class CMakeBuild(build_ext):
    def build_extension(self, ext):
        reuse = os.environ.get("TFQ_CMAKE_BUILD_DIR")
        build_dir = os.path.join(ROOT, reuse) if reuse else tempfile.mkdtemp(prefix="tfq-python-")
        try:
            self._cmake(build_dir, fresh=not reuse)
            built = glob.glob(os.path.join(build_dir, "python", "_tfq*.so"))
            if len(built) != 1:
                raise RuntimeError(f"expected one _tfq*.so in {build_dir}/python, found {built}")
            target = self.get_ext_fullpath(ext.name)
            os.makedirs(os.path.dirname(target), exist_ok=True)
            shutil.copyfile(built[0], target)
        finally:
            if not reuse:
                shutil.rmtree(build_dir, ignore_errors=True)

    def _cmake(self, build_dir, fresh):
        configure = ["cmake", "-S", ROOT, "-B", build_dir, "-DTFQ_PYTHON=ON",
                     f"-DPython_EXECUTABLE={sys.executable}"]
        try:  # pybind11's CMake files: Debian's python3-pybind11, or pip's in an isolated build
            import pybind11
            configure.append(f"-Dpybind11_DIR={pybind11.get_cmake_dir()}")
        except ImportError:
            pass  # find_package looks in the system's places (Debian's pybind11-dev)
        if fresh:
            configure += ["-DCMAKE_BUILD_TYPE=Release", "-DTFQ_BUILD_TESTS=OFF"]
            if shutil.which("ninja"):
                configure += ["-G", "Ninja"]
            if shutil.which("ccache"):  # a rebuild of the same sources costs nothing
                configure += ["-DCMAKE_CXX_COMPILER_LAUNCHER=ccache", "-DCMAKE_C_COMPILER_LAUNCHER=ccache"]
        jobs = os.environ.get("JOBS") or str(os.cpu_count() or 1)
        subprocess.run(configure, check=True, stdout=subprocess.DEVNULL if not fresh else None)
        subprocess.run(["cmake", "--build", build_dir, "--target", "_tfq", "-j", jobs], check=True)


setup(
    ext_modules=[CMakeExtension("tfq._tfq")],
    cmdclass={"build_ext": CMakeBuild},
    # setuptools' own build files, kept out of the way of CMake's build/ tree.
    options={"build": {"build_base": "build/setuptools"}},
    zip_safe=False,
)
