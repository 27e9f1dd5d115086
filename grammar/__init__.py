"""Data package: the Lark grammars, installed as ``geodsl.grammar``."""
