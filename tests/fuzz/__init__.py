"""aifcheck's fuzzing harness (issue 21): no file can crash a run, exhaust memory or lose a report.

- corpus.py: the real files the mutations start from (fixtures, examples, NIST's m54 files);
- mutate.py: a seeded mutator of those files (case N of seed S is always the same bytes);
- hostile.py: the hand-made hostile inputs of the issue, and the large ones (17 MB literal, bomb);
- oracle.py: what a run must do with any file (no traceback, the README's exit codes, every
  file reported once, an unreadable file never valid, no internal exception text);
- fuzz.py: the command-line mode, ``python tests/fuzz/fuzz.py --cases 10000 --seed 7 --jobs 2``;
- commands.py: every command's inputs and surroundings made hostile (issues 36, 43): tables
  edited, files made FIFOs, folders, dangling links or unreadable, -o onto files, links, FIFOs,
  devices or inputs, read-only folders or a full disk, option values out of range, runs repeated,
  folder names with tabs or bytes not UTF-8, stdout closed, signals, twin runs; its oracle holds
  every command to one answer per class of mistake (oracle.MISTAKES); ``python
  tests/fuzz/commands.py --cases 10000 --jobs 2`` is its long mode, test_commands.py its 80
  cases in CI;
- test_*.py: the same checks in CI with a fixed seed, Hypothesis properties, memory limits and
  the regression cases of what the harness found.
"""
