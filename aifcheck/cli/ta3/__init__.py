"""The commands of TA3: a module per command group that has the task (aifcheck.tasks)."""
