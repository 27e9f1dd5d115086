"""The language layer: text to a typed, validated AST and back.

================ ==========================================================
module           job
================ ==========================================================
``errors``       :class:`GeoDSLError` and its kinds: file, line, column, hint
``limits``       size limits on input
``ast``          the typed, frozen AST (problem, premise, construction, ...)
``constants``    reading and printing exact constants
``syntax``       the Lark grammar of problem text (``grammar/geodsl.lark``)
``lines``        splitting a file into lines and statements
``definitions``  the rulebase: constructions and predicates, as data
``rules``        the deduction rules of ``rulebase/rules.gdl``
``semantics``    statements to AST nodes, with validation
``parser``       :func:`parse`, :func:`load` and their iterators
``printer``      the AST back to text (per dialect) and JSON
``notation``     proof-step notation, read and printed
================ ==========================================================

Nothing here imports the realizer, the provers or the checker.
"""
