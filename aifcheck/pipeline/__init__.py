"""NIST's docker stages per task: clean, validate, merge, ARF; pools."""
