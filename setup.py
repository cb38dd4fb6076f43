"""Builds the compiled search core (tsumego/search/_core.c) with the system C compiler; everything
else is in pyproject.toml.

With gcc the build is profile-guided: the core is compiled with instrumentation, solves the
composed problems of problems/ (tools/train_core.py), and is compiled again with the profile
that run recorded, which makes the search about a fifth faster. Where any step fails (another
compiler, an older gcc, the training files absent), or with TSUMEGO_PGO=0 in the environment,
the core is compiled once, optimized, without a profile. The two search the same nodes.
"""

from __future__ import annotations

import os
import platform
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext
from setuptools.errors import CompileError, LinkError

HERE = Path(__file__).resolve().parent
FLAGS = ["-O3", "-std=c11", "-Wall", "-Wextra"]
if platform.machine().lower() in ("x86_64", "amd64"):
    FLAGS.append("-mpopcnt")  # every x86-64 processor since 2008; the core counts bits often


def is_gcc(command: list[str]) -> bool:
    """Whether the compiler ``command`` runs is gcc (clang also answers to ``cc``)."""
    try:
        out = subprocess.run([command[0], "--version"], capture_output=True, text=True,
                             timeout=30).stdout
    except (OSError, subprocess.SubprocessError):
        return False
    return "Free Software Foundation" in out and "clang" not in out


class ProfiledBuild(build_ext):
    """build_ext that builds the core profile-guided where it can (see the module's text)."""

    def _compile(self, ext: Extension, base: list[str], build: str, flags: list[str],
                 link: list[str]) -> None:
        """One compile of the core, tagged ``build`` (``compiled.core_build()``), with
        ``flags`` after the base flags and ``link`` for the linker; always, since the core
        of an earlier pass is newer than its source."""
        ext.define_macros = [("TSUMEGO_BUILD", f'"{build}"')]
        ext.extra_compile_args = base + flags
        ext.extra_link_args = link
        self.force = True
        super().build_extension(ext)

    def build_extension(self, ext: Extension) -> None:
        base = list(ext.extra_compile_args or [])
        wanted = os.environ.get("TSUMEGO_PGO", "1") != "0"
        if wanted and self.compiler.compiler_type == "unix" \
                and is_gcc(self.compiler.compiler_so):
            try:
                self._profiled(ext, base)
                return
            except (CompileError, LinkError, OSError, subprocess.SubprocessError,
                    RuntimeError) as e:
                print(f"tsumego: profile-guided build failed ({e}); building without a profile",
                      file=sys.stderr)
        self._compile(ext, base, "plain", [], [])

    def _profiled(self, ext: Extension, base: list[str]) -> None:
        """Instrumented build, training run, optimized build with the profile."""
        trainer, problems = HERE / "tools" / "train_core.py", HERE / "problems"
        if not trainer.is_file() or not problems.is_dir():
            raise RuntimeError("tools/train_core.py or problems/ is absent")
        with tempfile.TemporaryDirectory(prefix="tsumego-pgo-") as tmp:
            profile = Path(tmp) / "profile"
            self._compile(ext, base, "instrumented",
                          ["-fprofile-generate", f"-fprofile-dir={profile}"],
                          ["-fprofile-generate"])
            # the training imports the package from a copy that holds the instrumented core
            tree = Path(tmp) / "tree"
            shutil.copytree(HERE / "tsumego", tree / "tsumego",
                            ignore=shutil.ignore_patterns("*.so", "*.pyd", "__pycache__"))
            built = Path(self.get_ext_fullpath(ext.name))
            shutil.copy2(built, tree / built.relative_to(built.parents[2]))
            # first on the path, before what the build environment puts there (numpy, sgfmill)
            path = os.pathsep.join(p for p in (str(tree), os.environ.get("PYTHONPATH")) if p)
            env = dict(os.environ, PYTHONPATH=path)
            run = subprocess.run([sys.executable, str(trainer), str(problems)], env=env,
                                 cwd=tmp, capture_output=True, text=True, timeout=600)
            if run.returncode != 0:
                raise RuntimeError(f"training run: {run.stderr.strip()[-300:]}")
            if not profile.is_dir() or not any(profile.iterdir()):
                raise RuntimeError("the training run wrote no profile")
            print(run.stdout.strip(), file=sys.stderr)
            self._compile(ext, base, "profile-guided",
                          ["-fprofile-use", f"-fprofile-dir={profile}",
                           "-fprofile-partial-training", "-Wno-missing-profile"], [])


setup(
    ext_modules=[Extension("tsumego.search._core", ["tsumego/search/_core.c"],
                           extra_compile_args=FLAGS)],
    cmdclass={"build_ext": ProfiledBuild},
)
