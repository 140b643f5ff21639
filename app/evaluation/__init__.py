"""Evaluation: the strict scorer every benchmark uses (scoring.py) and the question sets it reads."""
