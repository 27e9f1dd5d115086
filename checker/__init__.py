"""The verification layer, installed as ``geodsl.checker``: option truth,
auxiliary constructions, proof-step grading, the LLM judge and benchmark
metrics. Each stands on the parser, the realizer and the closure."""
