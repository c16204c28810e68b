"""The commands of TA1: a module per command group that has the task (aifcheck.tasks)."""
