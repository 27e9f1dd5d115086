"""After saturation, write down what the structures and AR tables know.

DD asks the store to prove facts on demand, so a saturated closure *can*
prove many facts it never had to write down (every parallel an angle chase
gives, every equal length a ratio chase gives). Users enumerating what is
provable want them listed. The diagram says which candidates are worth
asking about: for each numerically true collinearity, concyclicity,
parallel, perpendicular and equal-length candidate, one canonical instance
per pair of lines (circles, segments) is asked of the store and, when proved,
stored with its provenance. Angle and ratio equalities between arbitrary
pairs are not listed (there are too many); ``Closure.proves`` answers them.
"""

from __future__ import annotations

import math
import time

from ..budget import BudgetExceeded
from .store import Store


def harvest(store: Store, deadline: float, max_facts: int) -> None:
    """Materialize provable coll, cyclic, para, perp and cong facts (budgeted)."""
    m = store.model

    def ask(name: str, args: tuple[int, ...]) -> None:
        if time.monotonic() > deadline or len(store.facts) >= max_facts:
            raise BudgetExceeded("harvest", "time" if time.monotonic() > deadline else "facts")
        store.prove(name, args)

    for line in m.lines:
        for p in line[2:]:
            ask("coll", (line[0], line[1], p))
    for circle in m.circles:
        for p in circle[3:]:
            ask("cyclic", (circle[0], circle[1], circle[2], p))
    for cls in m.dir_classes:
        for i, l1 in enumerate(cls):
            for l2 in cls[i + 1:]:
                ask("para", m.lines[l1][:2] + m.lines[l2][:2])
    for ci, cls in enumerate(m.dir_classes):
        other = m.dir_class_at(m.dir_values[ci] + math.pi / 2)
        if other is None or other < ci:
            continue
        for l1 in cls:
            for l2 in m.dir_classes[other]:
                ask("perp", m.lines[l1][:2] + m.lines[l2][:2])
    for segs in m.len_classes:
        for i, s1 in enumerate(segs):
            for s2 in segs[i + 1:]:
                ask("cong", s1 + s2)
