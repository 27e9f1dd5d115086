"""Data package: construction, predicate and rule definitions, installed as ``geodsl.rulebase``."""
