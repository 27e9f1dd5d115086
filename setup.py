"""Build the Cython extensions in ext/ (everything else is in pyproject.toml)."""

from Cython.Build import cythonize
from setuptools import Extension, setup

extensions = [
    Extension("geodsl._canon", ["ext/canon.pyx"]),
    Extension("geodsl._fire", ["ext/fire.pyx"]),
    Extension("geodsl._lalr", ["ext/lalr.pyx"]),
    Extension("geodsl._linear", ["ext/linear.pyx"]),
    # No fused multiply-adds: the compiled checks must round like the realizer's Python.
    Extension("geodsl._match", ["ext/match.pyx"], extra_compile_args=["-ffp-contract=off"]),
]

setup(ext_modules=cythonize(extensions, language_level=3, compiler_directives={"embedsignature": True}))
