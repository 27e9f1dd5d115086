"""Build the Cython extensions in ext/ (everything else is in pyproject.toml)."""

from Cython.Build import cythonize
from setuptools import Extension, setup

extensions = [
    Extension("geodsl._canon", ["ext/canon.pyx"]),
    Extension("geodsl._fire", ["ext/fire.pyx"]),
    Extension("geodsl._lalr", ["ext/lalr.pyx"]),
    Extension("geodsl._linear", ["ext/linear.pyx"]),
    Extension("geodsl._match", ["ext/match.pyx"]),
]

setup(ext_modules=cythonize(extensions, language_level=3, compiler_directives={"embedsignature": True}))
