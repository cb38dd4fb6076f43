"""Builds the compiled search core (tsumego/search/_core.c) with the system C compiler; everything
else is in pyproject.toml."""

import platform

from setuptools import Extension, setup

flags = ["-O2", "-std=c11", "-Wall", "-Wextra"]
if platform.machine().lower() in ("x86_64", "amd64"):
    flags.append("-mpopcnt")  # every x86-64 processor since 2008; the core counts bits often

setup(ext_modules=[Extension("tsumego.search._core", ["tsumego/search/_core.c"], extra_compile_args=flags)])
