"""The commands of TA2: a module per command group that has the task (aifcheck.tasks)."""
