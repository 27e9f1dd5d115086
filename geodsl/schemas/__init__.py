"""JSON Schemas (draft 2020-12) of every ``--json`` output, shipped in the package.

One file per command: ``parse.json``, ``prove.json``, ``check.json``,
``realize.json``, ``score.json``, ``grade.json``, ``aux.json``, ``generate.json`` (its
``$defs/record`` is one line of ``geodsl generate``'s ``problems.jsonl``). Shared pieces (the error object, a
predicate, a proof) are defined once in ``common.json`` and referenced by
``$ref``. Validate an output with any draft 2020-12 validator, e.g.::

    import json, jsonschema, geodsl.schemas
    jsonschema.validate(json.loads(output), geodsl.schemas.schema("prove"),
                        registry=geodsl.schemas.registry())

(:func:`registry` needs the ``referencing`` package, which ``jsonschema``
installs.)
"""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path

from ..lang.errors import UnknownNameError
from ..lang.semantics import did_you_mean

_HERE = Path(__file__).resolve().parent
BASE_URI = "https://geodsl.invalid/schemas/"
"""The ``$id`` prefix of every schema: ``BASE_URI + "prove.json"``."""

COMMANDS = ("parse", "prove", "check", "realize", "score", "grade", "aux", "generate")
"""The commands with a ``--json`` output, one schema each."""


def names() -> tuple[str, ...]:
    """Every schema file's name without ``.json``: the commands', then ``common``."""
    return COMMANDS + ("common",)


def path(name: str) -> Path:
    """The installed schema file of ``name`` (a command, or ``common``)."""
    if name not in names():
        guess = did_you_mean(name, names())
        raise UnknownNameError(f"no JSON schema named `{name}`", text=name,
                               hint=(f"did you mean `{guess}`? " if guess else "") + f"schemas: {', '.join(names())}")
    return _HERE / f"{name}.json"


@cache
def _schema_text(name: str) -> str:
    return path(name).read_text(encoding="utf-8")


def schema(name: str) -> dict[str, object]:
    """The schema of ``name`` as a fresh dict (a command, or ``common``)."""
    return json.loads(_schema_text(name))


def registry():
    """A ``referencing.Registry`` holding every schema under its ``$id``, so
    ``$ref`` to ``common.json`` resolves offline."""
    from referencing import Registry, Resource

    return Registry().with_resources(
        (BASE_URI + f"{n}.json", Resource.from_contents(schema(n))) for n in names())


__all__ = ["BASE_URI", "COMMANDS", "names", "path", "registry", "schema"]
